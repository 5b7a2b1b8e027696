package dev.noneops.hostfs.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProcFormatsTest {

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void splitsCmdlineAtNulWithOrWithoutATrailingNul() {
    assertThat(ProcFormats.argv(bytes("/usr/bin/containerd-shim-runc-v2\0-namespace\0k8s.io\0")))
        .containsExactly("/usr/bin/containerd-shim-runc-v2", "-namespace", "k8s.io");
    assertThat(ProcFormats.argv(bytes("nginx: master process\0"))).containsExactly("nginx: master process");
    assertThat(ProcFormats.argv(bytes("a\0\0b"))).containsExactly("a", "", "b");
    assertThat(ProcFormats.argv(bytes("no-terminator"))).containsExactly("no-terminator");
    assertThat(ProcFormats.argv(new byte[0])).isEmpty();
  }

  @Test
  void findsTheUnifiedCgroupLineAmongV1Lines() {
    String hybrid = "12:pids:/kubepods/pod1\n1:name=systemd:/kubepods/pod1\n0::/kubepods.slice/kubepods-pod1.slice/cri-containerd-abc.scope\n";

    assertThat(ProcFormats.unifiedCgroup(hybrid)).isEqualTo("/kubepods.slice/kubepods-pod1.slice/cri-containerd-abc.scope");
    assertThat(ProcFormats.unifiedCgroup("4:memory:/x\n")).isEmpty();
    assertThat(ProcFormats.unifiedCgroup("")).isEmpty();
  }

  @Test
  void listsEachMappedFileOnceInOrderAndSkipsAnonymousMappings() {
    String maps =
        String.join(
            "\n",
            "55d0c0a00000-55d0c0a02000 r--p 00000000 fe:00 1234                       /usr/bin/sleep",
            "55d0c0a02000-55d0c0a06000 r-xp 00002000 fe:00 1234                       /usr/bin/sleep",
            "55d0c1a00000-55d0c1a21000 rw-p 00000000 00:00 0                          [heap]",
            "7f0000000000-7f0000001000 rw-p 00000000 00:00 0 ",
            "7f0000001000-7f0000002000 r--p 00000000 fe:00 99                         /opt/node/v1/bin/my lib.so (deleted)",
            "7f0000002000-7f0000003000 r--p 00000000 fe:00 77                         /usr/lib/x86_64-linux-gnu/libc.so.6",
            "7ffd00000000-7ffd00001000 r-xp 00000000 00:00 0                          [vdso]",
            "");

    assertThat(ProcFormats.mappedFiles(maps))
        .containsExactly("/usr/bin/sleep", "/opt/node/v1/bin/my lib.so (deleted)", "/usr/lib/x86_64-linux-gnu/libc.so.6");
  }
}
