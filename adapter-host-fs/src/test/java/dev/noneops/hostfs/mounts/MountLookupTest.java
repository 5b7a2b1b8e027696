package dev.noneops.hostfs.mounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.mounts.MountEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MountLookupTest {

  private static List<MountEntry> table(String... lines) throws Exception {
    return MountInfoParser.parse(
        (String.join("\n", lines) + "\n").getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void picksTheLongestMountPointPrefixComparingWholeComponents() throws Exception {
    List<MountEntry> t = table(
        "1 0 8:1 / / rw - ext4 /dev/sda1 rw",
        "2 1 0:20 / /var/lib rw - tmpfs tmpfs rw",
        "3 1 0:21 / /var/lib2 rw - tmpfs tmpfs rw");

    assertThat(MountLookup.mountOf(Path.of("/var/lib/kubelet/x"), t).mountId()).isEqualTo(2);
    assertThat(MountLookup.mountOf(Path.of("/var/lib2"), t).mountId()).isEqualTo(3);
    assertThat(MountLookup.mountOf(Path.of("/var/lib22/x"), t).mountId()).isEqualTo(1);
  }

  @Test
  void picksTheTopmostOfMountsStackedOnOneMountPoint() throws Exception {
    List<MountEntry> t = table(
        "1 0 8:1 / / rw - ext4 /dev/sda1 rw",
        "7 1 0:20 / /data rw - tmpfs tmpfs rw",
        "9 7 0:22 / /data rw - tmpfs tmpfs rw",
        "8 1 0:21 / /other rw - tmpfs tmpfs rw");

    assertThat(MountLookup.mountOf(Path.of("/data/file"), t).mountId()).isEqualTo(9);
  }

  @Test
  void resolvesSymlinksInTheParentButNotTheLastComponent(@TempDir Path dir) throws Exception {
    Path real = Files.createDirectory(dir.resolve("real"));
    Path viaLink = Files.createSymbolicLink(dir.resolve("link"), real);
    Path mountInfo = dir.resolve("mountinfo");
    Files.writeString(
        mountInfo,
        "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n5 1 0:30 / " + real.toRealPath()
            + " rw - tmpfs tmpfs rw\n");
    MountLookup lookup = new MountLookup(mountInfo);

    assertThat(lookup.mountIdOf(viaLink.resolve("entry"))).isEqualTo(5);
    assertThat(lookup.mountIdOf(viaLink))
        .as("the link itself lives beside it, on /")
        .isEqualTo(1);
  }

  @Test
  void seesAMountTableThatChangedSinceTheLastLookup(@TempDir Path dir) throws Exception {
    Path mountInfo = dir.resolve("mountinfo");
    Files.writeString(mountInfo, "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n");
    MountLookup lookup = new MountLookup(mountInfo);
    assertThat(lookup.mountIdOf(dir)).isEqualTo(1);

    Files.writeString(
        mountInfo,
        "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n4 1 0:9 / " + dir.toRealPath() + " rw - tmpfs t rw\n");

    assertThat(lookup.mountIdOf(dir)).isEqualTo(4);
  }
}
