package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link DirectInspection} answers only the plain command lines of the two inspections and leaves
 * everything else, and every failure, to the command line, having printed nothing.
 */
class DirectInspectionDeclinesTest {

  private static final CliEnvironment UNREACHABLE = new CliEnvironment(
      new HostConnector() {
        @Override
        public HostSession connect() throws IOException {
          throw new IOException("no host");
        }

        @Override
        public HostSession connectToRead() throws IOException {
          throw new IOException("no host");
        }
      },
      () -> false,
      "1.2.3-test");

  @Test
  void leavesEveryOtherCommandLineToPicocliWithoutTouchingTheHost() {
    for (List<String> args : List.<List<String>>of(
        List.of(),
        List.of("status", "--help"),
        List.of("status", "-v"),
        List.of("-vv", "status"),
        List.of("--direct", "status"),
        List.of("status", "--direct", "--direct"),
        List.of("status", "--json", "--json"),
        List.of("status", "--bogus"),
        List.of("status", "extra"),
        List.of("status", "allocation-launch-check"),
        List.of("version"),
        List.of("apply", "--direct"))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();

      assertThat(DirectInspection.run(args, CliRun.NO_HOST, out)).as("%s", args).isEmpty();
      assertThat(out.size()).isZero();
    }
  }

  @Test
  void leavesAFailedInspectionToPicocliHavingPrintedNothing() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    assertThat(DirectInspection.run(List.of("status", "--direct"), UNREACHABLE, out))
        .isEmpty();
    assertThat(out.size()).isZero();
  }
}
