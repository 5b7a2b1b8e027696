package dev.noneops.ports.metrics;

import java.time.Duration;

/**
 * Where the agent's daemon reports what a fleet watches. Called on the daemon's threads, so an
 * implementation must be quick and must not throw: a metric that cannot be written is the
 * implementation's to log, never a reason for the daemon to stop.
 */
public interface AgentMetrics {
  /** Reports to nobody. */
  AgentMetrics NONE = new AgentMetrics() {
    @Override
    public void publish(AgentFigures figures) {}

    @Override
    public void operationEnded(String operation, String outcome, Duration took) {}

    @Override
    public void switchOver(Duration took) {}
  };

  /**
   * The agent's figures now, in place of the last ones; called at every tick of the daemon. An
   * implementation exposes them when they changed, and at least as often as it promises.
   */
  void publish(AgentFigures figures);

  /**
   * An operation ended: {@code operation} is one of {@link AgentFigures.Operation}'s kinds, {@code
   * outcome} one of its outcomes; {@code took} how long it ran.
   */
  void operationEnded(String operation, String outcome, Duration took);

  /** A switch-over (the stack stopped, {@code current} flipped, the stack started) took {@code took}. */
  void switchOver(Duration took);
}
