package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The commands that only read the node ({@code status}, {@code allocation-launch-check}) ask the
 * connector for a read-only session, which the real host opens without binding {@code statx}.
 */
class ReadOnlySessionTest {

  private static final CliEnvironment READ_ONLY_REFUSED = new CliEnvironment(
      new HostConnector() {
        @Override
        public HostSession connect() {
          throw new AssertionError("a read-only command opened a read-write session");
        }

        @Override
        public HostSession connectToRead() throws IOException {
          throw new IOException("the read-only session was asked for");
        }
      },
      () -> false,
      "1.2.3-test");

  @Test
  void statusAndTheLaunchCheckOpenAReadOnlySession() {
    for (List<String> args :
        List.of(List.of("status", "--direct"), List.of("allocation-launch-check", "--direct"))) {
      CliRun run = CliRun.of(READ_ONLY_REFUSED, args.toArray(String[]::new));

      assertThat(run.err()).as("%s", args).contains("the read-only session was asked for");
    }
  }
}
