package dev.noneops.cli;

import picocli.CommandLine.Option;

/**
 * {@code --direct}: inspect the host from this process rather than take the answer of the
 * running agent's daemon ({@link DaemonAnswers}), for {@code status} and {@code
 * allocation-launch-check}.
 */
public final class DirectOption {
  /** The option as typed. */
  public static final String NAME = "--direct";

  @Option(
      names = NAME,
      description = "Inspect the host from this process instead of asking the running agent's"
          + " daemon (which answers when it runs).")
  boolean direct;

  /** Whether the operator asked for the direct path. */
  boolean requested() {
    return direct;
  }
}
