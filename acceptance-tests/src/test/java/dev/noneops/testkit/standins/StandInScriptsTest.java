package dev.noneops.testkit.standins;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Stand-in classes are run from a place a sandboxed systemd can see. */
class StandInScriptsTest {

  @Test
  void classesBelowTmpAreCopiedOutOfIt() throws Exception {
    Path classes = Files.createTempDirectory(Path.of("/tmp"), "standin-classes-");
    Files.createDirectories(classes.resolve("dev/noneops"));
    Files.writeString(classes.resolve("dev/noneops/Marker.class"), "bytes");

    Path visible = StandInScripts.visibleInSandbox(classes);

    assertThat(visible.startsWith(Path.of("/tmp"))).isFalse();
    assertThat(visible.resolve("dev/noneops/Marker.class")).hasContent("bytes");
  }

  @Test
  void classesElsewhereStayWhereTheyAre() throws Exception {
    Path classes = Path.of("/opt/example/classes");

    assertThat(StandInScripts.visibleInSandbox(classes)).isEqualTo(classes);
  }
}
