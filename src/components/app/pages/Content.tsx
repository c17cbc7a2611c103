/** Placeholder until the Content page lands (built on another branch). */
import type { ReactNode } from 'react';
import { PageHeading } from '../site.js';

/** The Content page. */
export default function ContentPage(): ReactNode {
  return <PageHeading title="Content" />;
}
