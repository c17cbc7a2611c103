/** Placeholder until the Contacts page lands (built on another branch). */
import type { ReactNode } from 'react';
import { PageHeading } from '../site.js';

/** The Contacts page. */
export default function ContactsPage(): ReactNode {
  return <PageHeading title="Contacts" />;
}
