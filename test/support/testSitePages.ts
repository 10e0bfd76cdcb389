import type { TestRoute } from './testSite.ts';

/** The default test website, "Crumb & Co." (see testSite.ts for what tests may rely on). */
const layout = (title: string, main: string, extraHead = '') => `<!doctype html>
<html lang="en-US">
<head>
  <meta charset="utf-8">
  <title>${title} | Crumb &amp; Co.</title>
  <meta name="description" content="Online ordering and inventory software for independent bakeries.">
  <meta name="theme-color" content="#1B998B">
  <meta property="og:site_name" content="Crumb &amp; Co.">
  <link rel="stylesheet" href="/assets/site.css">
  <style>.hero { background: #FFF4E0; color: #2b2d42; }</style>
  ${extraHead}
</head>
<body>
  <header>
    <a href="/">Crumb &amp; Co.</a>
    <nav>
      <a href="/products/online-ordering">Online Ordering</a>
      <a href="/products/inventory">Inventory</a>
      <a href="/blog">Blog</a>
      <a href="/about">About</a>
      <a href="https://twitter.example/crumbandco">Twitter</a>
    </nav>
  </header>
  <main>${main}</main>
  <footer>
    <p>© 2024 Crumb &amp; Co. · Made with flour in Portland, Oregon.</p>
    <a href="/private/staff-handbook">Staff</a>
  </footer>
  <script>window.analytics = { track() {} };</script>
</body>
</html>`;

const post = (title: string, paragraphs: string[]) =>
  layout(
    title,
    `<article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</article>`,
  );

export const defaultSitePages: Record<string, TestRoute> = {
  '/': layout(
    'Ordering software for independent bakeries',
    `
    <section class="hero">
      <h1>Sell more bread with less busywork</h1>
      <p>You bake. We'll handle the orders, the reminders and the stock counts.</p>
      <p>We help independent bakeries take orders online without hiring a developer.</p>
    </section>
    <section>
      <h2>Why bakers choose us</h2>
      <ul>
        <li>Trusted by 500+ bakeries in 12 countries.</li>
        <li>Your customers order in under a minute, on any phone.</li>
        <li>You see tomorrow's bake list before you leave tonight.</li>
      </ul>
      <blockquote class="testimonial">"Crumb &amp; Co. gave me my Sunday mornings back. Pre-orders doubled in a month." — Maya, Rise Bakehouse</blockquote>
      <p><a class="button" href="/products/online-ordering?utm_source=home">See how ordering works</a></p>
    </section>`,
  ),
  '/about': layout(
    'About us',
    `
    <h1>About Crumb &amp; Co.</h1>
    <p>Crumb &amp; Co. was founded in 2011 in Portland by two bakers who were tired of paper order books.</p>
    <p>Today we're a team of 40 bakers, designers and engineers. We still bake every Friday.</p>
    <p>Want to join us? Read the <a href="/private/staff-handbook">staff handbook</a>.</p>`,
  ),
  '/products/online-ordering': layout(
    'Online Ordering',
    `
    <h1>Online Ordering</h1>
    <p>Your menu, your prices, your pickup times. Customers pay when they order, so you don't chase no-shows.</p>
    <h2>Pre-orders for holidays</h2>
    <p>Open holiday pre-orders weeks ahead and cap each day at what your oven can handle.</p>`,
  ),
  '/products/inventory': layout(
    'Inventory',
    `
    <h1>Inventory</h1>
    <p>Know how much flour, butter and yeast you have left. We'll tell you when to reorder.</p>`,
  ),
  '/blog': layout(
    'Blog',
    `
    <h1>The Crumb &amp; Co. blog</h1>
    <ul>
      <li><a href="/blog/proofing-schedules">Proofing schedules that fit a small team</a></li>
      <li><a href="/blog/pricing-sourdough">How to price a sourdough loaf</a></li>
      <li><a href="/blog/holiday-preorders">Holiday pre-orders without the chaos</a></li>
    </ul>`,
  ),
  '/blog/proofing-schedules': post('Proofing schedules that fit a small team', [
    "You don't need a night shift to sell fresh bread at 7am.",
    'Start with the loaves that sell out first, and work backwards from your opening time.',
    "We've seen bakeries cut their early starts by two hours with a written schedule.",
  ]),
  '/blog/pricing-sourdough': post('How to price a sourdough loaf', [
    'Your price has to cover flour, time and the oven, not just the ingredients.',
    'Add up what one batch costs you, divide by the loaves, and then add your margin.',
    "Don't be afraid to charge for the 36 hours a good loaf takes.",
  ]),
  '/blog/holiday-preorders': post('Holiday pre-orders without the chaos', [
    'Holiday weeks can make or break your quarter.',
    "Open pre-orders early, cap each pickup slot, and you'll know exactly what to bake.",
  ]),
  '/private/staff-handbook': layout(
    'Staff handbook',
    '<h1>Staff handbook</h1><p>Internal only.</p>',
  ),
  '/robots.txt': `User-agent: *
Disallow: /private/

Sitemap: {{origin}}/sitemap.xml
`,
  '/sitemap.xml': `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>{{origin}}/</loc></url>
  <url><loc>{{origin}}/about</loc></url>
  <url><loc>{{origin}}/blog</loc></url>
  <url><loc>{{origin}}/blog/proofing-schedules</loc></url>
  <url><loc>{{origin}}/private/staff-handbook</loc></url>
  <url><loc>https://elsewhere.example/not-our-site</loc></url>
</urlset>`,
  '/assets/site.css': `:root {
  --primary: #E4572E;
  --accent: #F3A712;
  --background: #FFFDF8;
  --text: #2B2D42;
  --radius: 12px;
}
body { color: var(--text); background-color: var(--background); font-family: "Inter", Helvetica, sans-serif; }
h1, h2, h3 { font-family: "Fraunces", Georgia, serif; font-weight: 700; color: #2b2d42; }
a { color: var(--primary); }
.button { background: var(--primary); color: #fff; border-radius: 999px; padding: 12px 20px; }
.card { background: #ffffff; border: 1px solid #eee7db; border-radius: var(--radius); }
.badge { background: #f3a712; color: #2B2D42; border-radius: 12px; }
.hero { background: linear-gradient(135deg, #FFF4E0, #FFFDF8); }
footer { background: #2B2D42; color: #FFFDF8; }
`,
};
