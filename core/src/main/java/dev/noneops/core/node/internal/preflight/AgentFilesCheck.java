package dev.noneops.core.node.internal.preflight;

import dev.noneops.core.config.RootOnlyPath;
import dev.noneops.core.config.WritableByOthersException;
import dev.noneops.core.node.AgentSetup;
import java.io.IOException;

/**
 * The files the agent a bootstrap installs follows as root — its configuration file and the java
 * its launcher runs — can be changed by root alone ({@link RootOnlyPath}), as the bootstrap's
 * {@code check-agent-files} step requires before anything is written.
 */
public final class AgentFilesCheck implements PreflightCheck {
  public static final String NAME = "agent-files";

  private final RootOnlyPath rootOnly;
  private final AgentSetup agent;

  public AgentFilesCheck(RootOnlyPath rootOnly, AgentSetup agent) {
    this.rootOnly = rootOnly;
    this.agent = agent;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CheckOutcome run() throws IOException {
    try {
      requireRootOnly(rootOnly, agent);
    } catch (WritableByOthersException e) {
      return fail(
          e.getMessage(),
          "make root the owner of " + e.entry() + " and take write access from its group and"
              + " others (chown root, chmod go-w), or pass a file and a java only root can"
              + " change");
    }
    return ok("only root can change the configuration file " + agent.configFile() + " and the java "
        + agent.java());
  }

  /** Throws when anyone but root can change the agent's configuration file or its java. */
  public static void requireRootOnly(RootOnlyPath rootOnly, AgentSetup agent) throws IOException {
    rootOnly.require("the agent's configuration file", agent.configFile());
    rootOnly.require("the agent's java", agent.java());
  }
}
