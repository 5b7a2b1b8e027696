package dev.noneops.hostfs.mounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.mounts.MountEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class MountInfoParserTest {

  @Test
  void parsesEveryFieldOfTheProcManPageExample() throws Exception {
    MountEntry e = MountInfoParser.parseLine(
        "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue", 1);

    assertThat(e)
        .isEqualTo(new MountEntry(
            36, 35, "98:0", "/mnt1", Path.of("/mnt/parent"), "rw,noatime", "ext3", "/dev/root"));
  }

  @Test
  void acceptsAnyNumberOfOptionalFields() throws Exception {
    assertThat(MountInfoParser.parseLine("1 0 0:1 / / rw - rootfs rootfs rw", 1).fsType())
        .isEqualTo("rootfs");
    assertThat(MountInfoParser.parseLine(
                "2 1 0:2 / /a rw shared:3 master:4 propagate_from:5 unbindable - tmpfs tmpfs rw", 1)
            .mountPoint())
        .isEqualTo(Path.of("/a"));
  }

  @Test
  void decodesOctalEscapesOfSpaceTabNewlineAndBackslash() throws Exception {
    MountEntry e = MountInfoParser.parseLine(
        "40 27 0:50 /src\\040dir /mnt/with\\040space\\011tab\\012newline\\134backslash rw - tmpfs my\\040source rw",
        1);

    assertThat(e.root()).isEqualTo("/src dir");
    assertThat(e.mountPoint()).isEqualTo(Path.of("/mnt/with space\ttab\nnewline\\backslash"));
    assertThat(e.source()).isEqualTo("my source");
  }

  @Test
  void decodesRawUtf8BytesOfThePath() throws Exception {
    byte[] line =
        "41 27 0:51 / /mnt/caf\u00e9 rw - tmpfs tmpfs rw\n".getBytes(StandardCharsets.UTF_8);

    assertThat(MountInfoParser.parse(line).get(0).mountPoint().toString())
        .isEqualTo("/mnt/caf\u00e9");
  }

  @Test
  void leavesABackslashThatIsNoEscapeAlone() {
    assertThat(MountInfoParser.unescape("a\\9b\\04")).isEqualTo("a\\9b\\04");
  }

  @Test
  void anEscapeCutShortByTheEndOfItsFieldStaysLiteral() throws Exception {
    MountEntry e = MountInfoParser.parseLine("1 0 0:1 /r\\0 /a\\04 rw - tmpfs src\\1 rw", 1);

    assertThat(e.root()).isEqualTo("/r\\0");
    assertThat(e.mountPoint()).isEqualTo(Path.of("/a\\04"));
    assertThat(e.source()).isEqualTo("src\\1");
  }

  @Test
  void readsEachLineOfALongerTextOnItsOwn() throws Exception {
    String content = "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
        + "22 1 0:5 /x\\040y /mnt/a\\040b rw,nosuid shared:7 - tmpfs tmp\\040fs rw,size=4k\n"
        + "333 22 0:6 / /mnt/c ro - proc proc rw";

    List<MountEntry> entries = MountInfoParser.parse(content);

    assertThat(entries)
        .containsExactly(
            new MountEntry(1, 0, "8:1", "/", Path.of("/"), "rw", "ext4", "/dev/sda1"),
            new MountEntry(
                22, 1, "0:5", "/x y", Path.of("/mnt/a b"), "rw,nosuid", "tmpfs", "tmp fs"),
            new MountEntry(333, 22, "0:6", "/", Path.of("/mnt/c"), "ro", "proc", "proc"));
  }

  @Test
  void keepsEntriesInFileOrderAndSkipsEmptyLines() throws Exception {
    String content = "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n\n2 1 0:5 / /proc rw - proc proc rw\n";

    List<MountEntry> entries = MountInfoParser.parse(content.getBytes(StandardCharsets.US_ASCII));

    assertThat(entries).extracting(MountEntry::mountId).containsExactly(1L, 2L);
  }

  @Test
  void parsesTheRunningKernelsOwnTable() throws Exception {
    List<MountEntry> entries =
        MountInfoParser.parse(Files.readAllBytes(Path.of("/proc/self/mountinfo")));

    assertThat(entries)
        .isNotEmpty()
        .anySatisfy(e -> assertThat(e.mountPoint()).isEqualTo(Path.of("/")));
  }

  @Test
  void parsesFiveThousandMountsQuickly() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5000; i++) {
      sb.append(100 + i)
          .append(' ')
          .append(99 + i)
          .append(" 0:")
          .append(i)
          .append(" / /var/lib/kubelet/pods/pod-")
          .append(i)
          .append("/volumes/kubernetes.io\\040secret/token")
          .append(" rw,relatime shared:")
          .append(i)
          .append(" - tmpfs tmpfs rw,size=1024k\n");
    }
    byte[] content = sb.toString().getBytes(StandardCharsets.US_ASCII);
    MountInfoParser.parse(content); // warm up

    long start = System.nanoTime();
    List<MountEntry> entries = MountInfoParser.parse(content);
    long millis = (System.nanoTime() - start) / 1_000_000;

    assertThat(entries).hasSize(5000);
    assertThat(entries.get(4999).mountPoint())
        .isEqualTo(Path.of("/var/lib/kubelet/pods/pod-4999/volumes/kubernetes.io secret/token"));
    assertThat(millis).as("parse time of 5,000 lines in ms").isLessThan(500);
  }

  @Test
  void namesTheLineAndTheProblemOfMalformedInput() {
    assertThatThrownBy(() -> MountInfoParser.parse(
            "1 0 8:1 / / rw ext4 /dev/sda1 rw\n".getBytes(StandardCharsets.US_ASCII)))
        .isInstanceOf(MountInfoFormatException.class)
        .hasMessageContaining("line 1")
        .hasMessageContaining("separator");
    assertThatThrownBy(() -> MountInfoParser.parseLine("x 0 8:1 / / rw - ext4 /dev/sda1 rw", 7))
        .hasMessageContaining("line 7")
        .hasMessageContaining("mount id 'x'");
    assertThatThrownBy(
            () -> MountInfoParser.parseLine("1 0 8:1 / relative rw - ext4 /dev/sda1 rw", 2))
        .hasMessageContaining("absolute");
  }

  @Test
  void namesTheOneMalformedLineOfALongerText() {
    String content =
        "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n2 1 8x1 / /b rw - ext4 /dev/sda1 rw\n3 1 8:1 / /c rw - ext4 /dev/sda1 rw\n";

    assertThatThrownBy(() -> MountInfoParser.parse(content))
        .isInstanceOf(MountInfoFormatException.class)
        .hasMessage(
            "mountinfo line 2: device is not major:minor: '2 1 8x1 / /b rw - ext4 /dev/sda1 rw'");
    assertThatThrownBy(
            () -> MountInfoParser.parse("1 0 8:1 / / rw - ext4 /dev/sda1 rw\n2 1 8:1 / /b\n"))
        .hasMessage(
            "mountinfo line 2: expected at least 10 space-separated fields: '2 1 8:1 / /b'");
    assertThatThrownBy(() -> MountInfoParser.parse("1 0 8:1 / / rw - ext4\n"))
        .hasMessageContaining("missing the mount source");
    assertThatThrownBy(() -> MountInfoParser.parseLine("7 x 8:1 / / rw - ext4 /dev/sda1 rw", 3))
        .hasMessageContaining("parent id 'x' is not a number");
  }
}
