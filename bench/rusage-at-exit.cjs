// Preloaded (`--require`) into the pdesk process the bulk bench measures: at exit it writes the process's own peak
// resident set and CPU time (every thread) to the file named by PDESK_BENCH_RUSAGE. getrusage(2) through Node gives
// both on every platform Node runs on, where polling /proc would read nothing off Linux and pass the RSS budget
// on a peak of 0.
const { writeFileSync } = require('node:fs');

const file = process.env.PDESK_BENCH_RUSAGE;
if (file) {
  process.on('exit', () => {
    const r = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssKb: r.maxRSS, cpuMs: (r.userCPUTime + r.systemCPUTime) / 1000 }));
  });
}
