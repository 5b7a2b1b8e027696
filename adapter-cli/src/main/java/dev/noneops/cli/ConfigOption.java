package dev.noneops.cli;

import dev.noneops.core.layout.NodeConstants;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --config FILE}: the agent configuration a command applies or reads. */
public final class ConfigOption {
  @Option(
      names = "--config",
      paramLabel = "FILE",
      defaultValue = NodeConstants.DEFAULT_CONFIG_PATH,
      description = "The agent configuration (JSON). Default: ${DEFAULT-VALUE}.")
  Path file;

  /** The file, absolute (a relative path is taken from the working directory). */
  public Path file() {
    return file.toAbsolutePath().normalize();
  }
}
