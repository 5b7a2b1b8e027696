package dev.noneops.benchmarks.e2e;

/**
 * The baseline of row 7: a JVM that does nothing but sleep, started with the agent launcher's JVM
 * options, so the daemon's idle cost can be read against what the JVM alone costs.
 */
public final class IdleJvm {
  private IdleJvm() {}

  public static void main(String[] args) throws InterruptedException {
    while (true) {
      Thread.sleep(Long.MAX_VALUE);
    }
  }
}
