// Run by bench/installable.py from inside a folder where Lighthouse was
// installed (`npm i -E lighthouse@12.2.3`, which brings puppeteer-core):
// Lighthouse on a board over https, in a normal (not private) profile that
// holds the phone's pass as a real cookie and trusts Caddy's authority
// (HOME), then Chromium's own installability check of the same board.
import fs from 'node:fs';
import puppeteer from 'puppeteer-core';
import lighthouse from 'lighthouse';

const info = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const version = JSON.parse(fs.readFileSync(new URL('./node_modules/lighthouse/package.json',
                                                   import.meta.url), 'utf8')).version;
// Lighthouse 12 dropped its PWA category (and its installability audits).
const categories = ['accessibility', 'best-practices'].concat(
  Number(version.split('.')[0]) < 12 ? ['pwa'] : []);
const board = `${info.url}/games/${info.game}`;
const browser = await puppeteer.launch({
  executablePath: info.chromium, headless: 'new', userDataDir: info.profile,
  args: ['--no-sandbox', '--disable-gpu', `--host-resolver-rules=MAP ${info.name} 127.0.0.1`],
  env: {...process.env, HOME: info.home},
});
try {
  const page = await browser.newPage();
  await page.setCookie({name: info.cookie, value: info.token, url: info.url, httpOnly: true,
                        secure: true, sameSite: 'Lax'});
  await page.goto(`${info.url}/`, {waitUntil: 'load'});
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  const {lhr} = await lighthouse(board, {output: 'json', onlyCategories: categories,
                                         formFactor: 'mobile'}, undefined, page);
  const audits = {};
  for (const id of ['installable-manifest', 'splash-screen', 'themed-omnibox', 'maskable-icon',
                    'is-on-https', 'errors-in-console', 'csp-xss']) {
    if (lhr.audits[id]) { audits[id] = lhr.audits[id].score; }
  }
  const again = await browser.newPage();
  await again.goto(board, {waitUntil: 'load'});
  const cdp = await again.createCDPSession();
  const installability = await cdp.send('Page.getInstallabilityErrors');
  const manifest = await cdp.send('Page.getAppManifest');
  console.log(JSON.stringify({
    lighthouse: lhr.lighthouseVersion, url: lhr.finalDisplayedUrl,
    categories: Object.fromEntries(Object.entries(lhr.categories).map(([k, c]) => [k, c.score])),
    audits, installability_errors: installability.installabilityErrors,
    manifest: manifest.url, manifest_errors: manifest.errors,
    service_worker: await again.evaluate(() => navigator.serviceWorker.controller &&
                                               navigator.serviceWorker.controller.scriptURL),
  }, null, 2));
} finally {
  await browser.close();
}
