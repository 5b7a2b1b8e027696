package dev.noneops.acceptance.machine;

/**
 * The agent's process was killed at this point: an {@link Error}, so no production code that
 * catches exceptions goes on past it.
 */
final class AgentKilled extends Error {
  private static final long serialVersionUID = 1L;

  AgentKilled(String where) {
    super("the agent was killed " + where);
  }
}
