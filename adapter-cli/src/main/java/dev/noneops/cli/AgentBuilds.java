package dev.noneops.cli;

import dev.noneops.core.node.AgentSetup;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The agent build this CLI is, as a bootstrap installs it: the running jar, the java running it
 * and the JVM options its units start it with. Empty when the CLI does not run from a jar (a
 * test run from classes), so there is nothing to install.
 */
@FunctionalInterface
public interface AgentBuilds {
  /** No build to install. */
  AgentBuilds NONE = configFile -> Optional.empty();

  /** The setup that installs this build with a daemon watching {@code configFile}. */
  Optional<AgentSetup> forConfig(Path configFile) throws IOException;

  /**
   * The java running this process, which the agent's launcher runs as root: the daemon and the
   * recovery gate check at every start that root alone can change it.
   */
  default Path java() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }
}
