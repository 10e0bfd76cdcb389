// `npm run test:contract` runs the contract suites against real servers: without them it would
// skip those suites and pass, so it stops here instead.
const missing = ['EVENTSTORE_URL', 'MONGODB_URL'].filter((name) => !process.env[name]);
if (missing.length > 0) {
  process.stderr.write(
    `test:contract needs ${missing.join(' and ')} (e.g. esdb://localhost:2113?tls=false, mongodb://localhost:27017/inkstream_ci)\n`,
  );
  process.exit(2);
}
