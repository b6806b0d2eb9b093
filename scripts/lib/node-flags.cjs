// The node flags every Tiendita process runs with (npm start, the e2e stack, the benches).
//
// --single-threaded-gc: V8 gives each process parallel GC helper threads, one per core. On a small
// machine where the five services, the gateway and PostgreSQL share two cores, every scavenge of
// one process then takes both cores from the others for a few milliseconds, and the requests
// queued behind it pay for it: the public product list through the gateway had p99 30-34 ms with
// the helpers and 7-23 ms without them at 500 req/s (npm run bench -- catalog). Each GC pause of
// the process itself grows a little, but the other processes keep their core. With more cores
// than that (SERVICE_PARALLEL_GC=1 forces it) the helpers are kept.
'use strict';

const os = require('node:os');

/** Cores at or below which the GC helpers cost more than they give. */
const SMALL_MACHINE_CORES = 4;

/** @returns {string[]} */
function serviceNodeFlags(env = process.env) {
  const flags = ['--enable-source-maps'];
  const parallel = env.SERVICE_PARALLEL_GC === '1' || (env.SERVICE_PARALLEL_GC !== '0' && os.availableParallelism() > SMALL_MACHINE_CORES);
  if (!parallel) flags.push('--single-threaded-gc');
  return flags;
}

module.exports = { serviceNodeFlags, SMALL_MACHINE_CORES };
