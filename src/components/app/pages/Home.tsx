/** Placeholder until the Home page lands (built on another branch). */
import type { ReactNode } from 'react';
import { PageHeading } from '../site.js';

/** The Home page. */
export default function HomePage(): ReactNode {
  return <PageHeading title="Home" />;
}
