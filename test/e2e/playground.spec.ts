// The demo index's playground (demo/site/playground.js): each element from the package's custom-elements.json, its
// attributes editable live, the snippets for plain HTML, React and Vue following them, the reference beside it.
import { expect, test } from './fixtures';
import { BUNDLE_ORIGIN } from './helpers';

test('editing attributes changes the live element and the three snippets; copy and the reference work', async ({
  page,
  context,
  makeAxeBuilder,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BUNDLE_ORIGIN });
  await page.goto(`${BUNDLE_ORIGIN}/`);
  const live = page.locator('#pg-element');
  await expect(page.locator('#pg-tabs button[aria-pressed="true"]')).toHaveText('<channel-schedule>');
  await expect(live.locator('[part~="title"]')).toHaveText('Live now', { timeout: 10_000 });

  // An attribute from a select: the element changes in place, and so does every snippet.
  await page.getByLabel('kind', { exact: true }).selectOption('upcoming');
  await expect(live).toHaveAttribute('kind', 'upcoming');
  await expect(live.locator('[part~="title"]')).not.toHaveText('Live now');
  await expect(page.locator('#pg-html')).toContainText(
    '<channel-schedule kind="upcoming" limit="6"></channel-schedule>',
  );
  await expect(page.locator('#pg-html')).toContainText(`${BUNDLE_ORIGIN}/channel-elements.js`);
  await expect(page.locator('#pg-react')).toContainText('kind="upcoming"');
  await expect(page.locator('#pg-react')).toContainText('limit={6}');
  await expect(page.locator('#pg-react')).toContainText('onchannel-event-select={(e) => console.log(e.detail)}');
  await expect(page.locator('#pg-vue')).toContainText('@channel-event-select=');
  // A flag, and the language.
  await page.getByLabel('show-filters').check();
  await expect(live.locator('[part~="filters"]').first()).toBeVisible();
  await expect(page.locator('#pg-html')).toContainText('show-filters');
  await page.getByLabel('lang', { exact: true }).selectOption('fr');
  await expect(live.locator('[part~="frame"]')).toHaveAttribute('lang', 'fr');
  // Clearing a value removes the attribute.
  await page.getByLabel('limit').fill('');
  await expect(live).not.toHaveAttribute('limit', /.*/);
  await expect(page.locator('#pg-react')).not.toContainText('limit=');

  // The element's events show in the log, and the playground keeps its page.
  await live.locator('[part~="event-link"]').first().click();
  await expect(page.locator('#pg-events')).toContainText('channel-event-select: {"id":');
  await expect(page).toHaveURL(`${BUNDLE_ORIGIN}/`);

  // Copy puts the snippet on the clipboard.
  await page.locator('[data-copy="pg-vue"]').click();
  await expect(page.locator('#pg-vue-status')).toHaveText('Copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.locator('#pg-vue').textContent());

  // The reference is the manifest's: every attribute with its description.
  const reference = page.locator('#pg-reference');
  await expect(reference.getByRole('table', { name: 'Attributes' }).locator('tbody tr')).toHaveCount(
    await page.locator('#pg-controls .pg-field').count(),
  );
  await expect(reference.locator('#pg-doc-show-filters')).toContainText(
    'show the gender, sport, city and state filters',
  );
  await expect(reference.getByRole('table', { name: 'CSS parts' })).toContainText('event-link');

  // Another element: its own attributes, reference and snippets.
  await page.getByRole('button', { name: '<channel-player>' }).click();
  await expect(page.locator('#pg-element')).toHaveJSProperty('localName', 'channel-player');
  await expect(page.getByLabel('prefer-playback')).toBeVisible();
  await expect(reference.getByRole('table', { name: 'Properties and methods' })).toContainText('play()');
  await expect(page.locator('#pg-html')).toContainText('<channel-player event-id=');

  const axe = await makeAxeBuilder().analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
});
