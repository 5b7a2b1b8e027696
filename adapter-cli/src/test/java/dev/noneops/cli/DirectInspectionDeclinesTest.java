package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link DirectInspection} answers only the plain command lines of the two inspections and leaves
 * everything else to the command line, having printed nothing.
 */
class DirectInspectionDeclinesTest {

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
      ByteArrayOutputStream err = new ByteArrayOutputStream();

      assertThat(DirectInspection.run(args, CliRun.NO_HOST, out, err))
          .as("%s", args)
          .isEmpty();
      assertThat(out.size()).isZero();
      assertThat(err.size()).isZero();
    }
  }
}
