/** Forgets everything the analytics layer holds for this page (tests, and a new configuration). */
import { resetTagManager } from '../tag-manager.js';
import { resetDatalake } from './datalake.js';
import { resetAnalyticsEvents } from './events.js';
import { resetAnalyticsGate } from './gate.js';
import { resetTracker } from './tracker.js';

export function resetAnalytics(): void {
  resetAnalyticsGate();
  resetDatalake();
  resetTracker();
  resetAnalyticsEvents();
  resetTagManager();
}
