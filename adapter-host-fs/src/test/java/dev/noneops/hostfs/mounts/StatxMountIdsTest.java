package dev.noneops.hostfs.mounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatxMountIdsTest {

  private final MountLookup table = new MountLookup(Path.of("/proc/self/mountinfo"));
  private final StatxMountIds statx = StatxMountIds.load(table);

  @Test
  void asksTheKernelOnLinux58AndLater() {
    assertThat(statx.usesStatx()).isTrue();
  }

  @Test
  void agreesWithTheMountTable(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("f"), "x");
    Path link = Files.createSymbolicLink(dir.resolve("link-to-proc"), Path.of("/proc/self"));

    for (Path p : new Path[] {
      file, dir, link, Path.of("/"), Path.of("/proc/self/status"), Path.of("/dev/null")
    }) {
      assertThat(statx.mountIdOf(p)).as("mount id of %s", p).isEqualTo(table.mountIdOf(p));
    }
    assertThat(statx.mountIdOf(link))
        .as("the link is not followed")
        .isNotEqualTo(statx.mountIdOf(Path.of("/proc/self")));
  }

  @Test
  void reportsEnoentForNothing(@TempDir Path dir) {
    assertThatThrownBy(() -> statx.mountIdOf(dir.resolve("absent")))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT));
  }
}
