package dev.noneops.benchmarks.e2e;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The calling thread's CPU time (user and system), in milliseconds: what the in-process curves on
 * the simulated host measure, since on a shared machine the wall time of a few milliseconds of
 * work is mostly the scheduler's. The simulated host runs everything on the calling thread; the
 * garbage collector's threads are not counted.
 */
final class ThreadCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private ThreadCpu() {}

  static double millis() {
    return THREADS.getCurrentThreadCpuTime() / 1e6;
  }
}
