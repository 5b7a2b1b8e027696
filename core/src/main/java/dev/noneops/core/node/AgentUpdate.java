package dev.noneops.core.node;

/**
 * What {@link Node#updateAgent()} did: a package upgrade on a running node ends with it, so the
 * daemon runs the build that is installed.
 */
public enum AgentUpdate {
  /** Another build was installed as the node's agent and its daemon restarted on it. */
  INSTALLED,
  /** The node's agent was this build already; its daemon runs (started if it was not). */
  UNCHANGED,
  /**
   * The node was bootstrapped without its agent ({@code --no-agent}, an embedder's own agent):
   * nothing was installed.
   */
  NO_AGENT
}
