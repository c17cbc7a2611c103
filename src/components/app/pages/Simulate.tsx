/** Placeholder until the Simulate page lands (built on another branch). */
import type { ReactNode } from 'react';
import { PageHeading } from '../site.js';

/** The Simulate page. */
export default function SimulatePage(): ReactNode {
  return <PageHeading title="Simulate" />;
}
