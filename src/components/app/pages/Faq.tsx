/** Placeholder until the Faq page lands (built on another branch). */
import type { ReactNode } from 'react';
import { PageHeading } from '../site.js';

/** The Faq page. */
export default function FaqPage(): ReactNode {
  return <PageHeading title="Faq" />;
}
