package dev.noneops.hostfs.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.process.ProcessIdentity;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProcFormatsTest {

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** {@code s} at the start of a larger buffer whose tail holds stale bytes, as a reused read buffer does. */
  private static byte[] inStaleBuffer(String s) {
    byte[] content = bytes(s);
    byte[] buffer = new byte[content.length + 64];
    Arrays.fill(buffer, (byte) 'X');
    System.arraycopy(content, 0, buffer, 0, content.length);
    return buffer;
  }

  @Test
  void aStatLineGivesThePidAndTheStartTimeCountedFromTheLastParenthesis() {
    String stat = "4242 (a) (b c) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 987654 "
        + "1000 200 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0";
    assertThat(ProcFormats.statIdentity(stat)).isEqualTo(new ProcessIdentity(4242, 987654));
    assertThatThrownBy(() -> ProcFormats.statIdentity("4242 (short) S 1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too few fields");
  }

  @Test
  void splitsCmdlineAtNulWithOrWithoutATrailingNul() {
    assertThat(ProcFormats.argv(bytes("/usr/bin/containerd-shim-runc-v2\0-namespace\0k8s.io\0")))
        .containsExactly("/usr/bin/containerd-shim-runc-v2", "-namespace", "k8s.io");
    assertThat(ProcFormats.argv(bytes("nginx: master process\0")))
        .containsExactly("nginx: master process");
    assertThat(ProcFormats.argv(bytes("a\0\0b"))).containsExactly("a", "", "b");
    assertThat(ProcFormats.argv(bytes("no-terminator"))).containsExactly("no-terminator");
    assertThat(ProcFormats.argv(new byte[0])).isEmpty();
  }

  @Test
  void findsTheUnifiedCgroupLineAmongV1Lines() {
    String hybrid =
        "12:pids:/kubepods/pod1\n1:name=systemd:/kubepods/pod1\n0::/kubepods.slice/kubepods-pod1.slice/cri-containerd-abc.scope\n";

    assertThat(ProcFormats.unifiedCgroup(hybrid))
        .isEqualTo("/kubepods.slice/kubepods-pod1.slice/cri-containerd-abc.scope");
    assertThat(ProcFormats.unifiedCgroup("4:memory:/x\n")).isEmpty();
    assertThat(ProcFormats.unifiedCgroup("")).isEmpty();
    assertThat(ProcFormats.unifiedCgroup("0::")).isEmpty();
    assertThat(ProcFormats.unifiedCgroup("0:: /with/white space \t\n"))
        .isEqualTo("/with/white space");
    assertThat(ProcFormats.unifiedCgroup("0::/caf\u00e9.slice")).isEqualTo("/caf\u00e9.slice");
  }

  @Test
  void listsEachMappedFileOnceInOrderAndSkipsAnonymousMappings() {
    String maps = String.join(
        "\n",
        "55d0c0a00000-55d0c0a02000 r--p 00000000 fe:00 1234                       /usr/bin/sleep",
        "55d0c0a02000-55d0c0a06000 r-xp 00002000 fe:00 1234                       /usr/bin/sleep",
        "55d0c1a00000-55d0c1a21000 rw-p 00000000 00:00 0                          [heap]",
        "7f0000000000-7f0000001000 rw-p 00000000 00:00 0 ",
        "7f0000001000-7f0000002000 r--p 00000000 fe:00 99                         /opt/node/v1/bin/my lib.so (deleted)",
        "7f0000002000-7f0000003000 r--p 00000000 fe:00 77                         /usr/lib/x86_64-linux-gnu/libc.so.6",
        "7f0000003000-7f0000004000 r--p 00000000 fe:00 1234                       /usr/bin/sleep",
        "7ffd00000000-7ffd00001000 r-xp 00000000 00:00 0                          [vdso]",
        "");

    assertThat(ProcFormats.mappedFiles(maps))
        .containsExactly(
            "/usr/bin/sleep",
            "/opt/node/v1/bin/my lib.so (deleted)",
            "/usr/lib/x86_64-linux-gnu/libc.so.6");
  }

  @Test
  void readsOnlyTheGivenLengthOfAReusedBuffer() {
    String cmdline = "sleep\0" + "60\0";
    String cgroup = "0::/system.slice/a.service\n";
    String maps = "00400000-00452000 r-xp 00000000 08:02 173521      /usr/bin/sleep\n";

    assertThat(ProcFormats.argv(inStaleBuffer(cmdline), bytes(cmdline).length))
        .containsExactly("sleep", "60");
    assertThat(ProcFormats.unifiedCgroup(inStaleBuffer(cgroup), bytes(cgroup).length))
        .isEqualTo("/system.slice/a.service");
    assertThat(ProcFormats.unifiedCgroup(inStaleBuffer("0::/x"), 5)).isEqualTo("/x");
    assertThat(ProcFormats.mappedFiles(inStaleBuffer(maps), bytes(maps).length))
        .containsExactly("/usr/bin/sleep");
    assertThat(ProcFormats.mappedFiles(inStaleBuffer(maps), 0)).isEmpty();
    assertThatThrownBy(() -> ProcFormats.argv(new byte[4], 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("length 5");
  }

  @Test
  void mappedFilesAgreeWithReadingTheTextLineByLine() {
    Random random = new Random(20261130);
    String[] paths = {
      "/usr/bin/sleep",
      "/usr/lib/libc.so.6",
      "/opt/node/v1/bin/kubelet (deleted)",
      "/a b/c\td",
      "/caf\u00e9",
      "[heap]",
      "[vdso]",
      ""
    };
    for (int run = 0; run < 500; run++) {
      StringBuilder maps = new StringBuilder();
      int lines = random.nextInt(40);
      for (int i = 0; i < lines; i++) {
        String path = paths[random.nextInt(paths.length)];
        String pad = " ".repeat(random.nextInt(3));
        switch (random.nextInt(10)) {
          case 0 -> maps.append("\n");
          case 1 -> maps.append("garbage").append(pad).append(path).append('\n');
          default ->
            maps.append("7f00-7f01 r--p 00000000 fe:00 ")
                .append(random.nextInt(999))
                .append(pad)
                .append(random.nextBoolean() ? "\t" : " ")
                .append(path)
                .append('\n');
        }
      }
      if (random.nextBoolean() && maps.length() > 0) {
        maps.setLength(maps.length() - 1);
      }

      assertThat(ProcFormats.mappedFiles(maps.toString()))
          .as("maps:%n%s", maps)
          .isEqualTo(byTextLines(maps.toString()));
    }
  }

  /** The reading of {@code maps} as text: split into lines, skip five fields, keep a path that starts with a slash. */
  private static List<String> byTextLines(String maps) {
    Set<String> files = new LinkedHashSet<>();
    for (String line : maps.split("\n")) {
      String path = pathnameOf(line);
      if (path != null && path.startsWith("/")) {
        files.add(path);
      }
    }
    return new ArrayList<>(files);
  }

  private static String pathnameOf(String line) {
    int pos = 0;
    for (int field = 0; field < 5; field++) {
      while (pos < line.length() && line.charAt(pos) == ' ') {
        pos++;
      }
      int space = line.indexOf(' ', pos);
      if (space < 0) {
        return null;
      }
      pos = space;
    }
    while (pos < line.length() && (line.charAt(pos) == ' ' || line.charAt(pos) == '\t')) {
      pos++;
    }
    return pos < line.length() ? line.substring(pos) : null;
  }
}
