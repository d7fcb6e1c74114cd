import autocannon from 'autocannon';

/**
 * The load generator in a process of its own (forked by `loadFromChild` in support.ts): the
 * figures of the process under test then count its own CPU time only.
 */
process.once('message', (options: autocannon.Options) => {
  void autocannon(options).then((result) => {
    process.send!({
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.non2xx + result.errors,
      total: result.requests.total,
    });
    process.disconnect();
  });
});
