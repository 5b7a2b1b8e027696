package dev.noneops.testkit.gate;

/**
 * Thrown from inside a port when a planned crash point is reached: the simulated machine lost
 * power at that instant. An {@link Error}, so production code that catches {@code Exception}
 * cannot swallow it. Once thrown, every further port call throws it again (the process is dead)
 * until the test calls {@code SimulatedHost.crash()}, which reboots the host on its durable
 * state.
 */
public final class SimulatedCrash extends Error {
  private static final long serialVersionUID = 1L;

  private final long crashPoint;

  public SimulatedCrash(String message, long crashPoint) {
    super(message);
    this.crashPoint = crashPoint;
  }

  /** The number (counted since the crash was armed, from 1) of the crash point that fired; 0 once halted. */
  public long crashPoint() {
    return crashPoint;
  }
}
