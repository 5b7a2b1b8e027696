package dev.noneops.hostfs.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.hostfs.nativeio.Syscalls;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.process.ProcessDetail;
import dev.noneops.ports.process.ProcessInfo;
import dev.noneops.ports.process.ProcessTable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcProcessTableTest {

  @Nested
  class OnAFakeProcTree {

    @TempDir
    Path proc;

    private ProcessTable table() {
      return new ProcProcessTable(proc, Syscalls.load());
    }

    private Path process(long pid, String cmdline, String cgroup, String maps) throws Exception {
      Path dir = Files.createDirectory(proc.resolve(Long.toString(pid)));
      Files.write(dir.resolve("cmdline"), cmdline.getBytes(StandardCharsets.UTF_8));
      Files.writeString(dir.resolve("cgroup"), cgroup);
      Files.writeString(dir.resolve("maps"), maps);
      return dir;
    }

    @Test
    void readsEveryProcessOrderedByPidAndIgnoresNonPidEntries() throws Exception {
      Path shim = process(
          4242,
          "/opt/unbounded/node/current/bin/containerd-shim-runc-v2\0-namespace\0k8s.io\0-address\0/run/containerd/containerd.sock\0",
          "0::/kubepods.slice/kubepods-pod1.slice\n",
          "00400000-00452000 r-xp 00000000 08:02 173521      /opt/unbounded/node/v1/bin/containerd-shim-runc-v2\n");
      Files.createSymbolicLink(
          shim.resolve("exe"), Path.of("/opt/unbounded/node/v1/bin/containerd-shim-runc-v2"));
      Path init = process(1, "/sbin/init\0", "0::/init.scope\n", "");
      Files.createSymbolicLink(init.resolve("exe"), Path.of("/usr/lib/systemd/systemd"));
      process(2, "", "0::/\n", ""); // a kernel thread: no exe link, no argv
      Files.createDirectory(proc.resolve("sys"));
      Files.createSymbolicLink(proc.resolve("self"), Path.of("1"));

      var processes = table().list();

      assertThat(processes).extracting(ProcessInfo::pid).containsExactly(1L, 2L, 4242L);
      ProcessInfo s = processes.get(2);
      assertThat(s.exe()).contains("/opt/unbounded/node/v1/bin/containerd-shim-runc-v2");
      assertThat(s.argv())
          .containsExactly(
              "/opt/unbounded/node/current/bin/containerd-shim-runc-v2",
              "-namespace",
              "k8s.io",
              "-address",
              "/run/containerd/containerd.sock");
      assertThat(s.cgroup()).isEqualTo("/kubepods.slice/kubepods-pod1.slice");
      assertThat(s.mappedFiles())
          .containsExactly("/opt/unbounded/node/v1/bin/containerd-shim-runc-v2");
      assertThat(processes.get(1).exe()).isEmpty();
      assertThat(processes.get(1).argv()).isEmpty();
    }

    @Test
    void keepsTheDeletedSuffixOfAReplacedExecutable() throws Exception {
      Path p = process(77, "x\0", "0::/\n", "");
      Files.createSymbolicLink(
          p.resolve("exe"), Path.of("/opt/unbounded/node/v1/bin/kubelet (deleted)"));

      assertThat(table().get(77).orElseThrow().exe())
          .contains("/opt/unbounded/node/v1/bin/kubelet (deleted)");
    }

    @Test
    void skipsAProcessThatVanishedWhileTheTableWasRead() throws Exception {
      process(10, "a\0", "0::/\n", "");
      Files.createDirectory(proc.resolve("11")); // its files are already gone
      process(12, "c\0", "0::/\n", "");

      assertThat(table().list()).extracting(ProcessInfo::pid).containsExactly(10L, 12L);
      assertThat(table().get(11)).isEmpty();
      assertThat(table().get(99)).isEmpty();
    }

    @Test
    void readsMapsOnlyWhenMappedFilesAreAskedFor() throws Exception {
      Path p = process(30, "sleep\0" + "60\0", "0::/system.slice/a.service\n", "");
      Files.createSymbolicLink(p.resolve("exe"), Path.of("/usr/bin/sleep"));
      Files.delete(p.resolve("maps"));
      Files.createDirectory(p.resolve("maps")); // reading it fails (EISDIR), so any read shows

      ProcessInfo lean = table().list(Set.of()).get(0);

      assertThat(lean)
          .isEqualTo(new ProcessInfo(
              30,
              Optional.of("/usr/bin/sleep"),
              List.of("sleep", "60"),
              "/system.slice/a.service",
              List.of()));
      assertThat(table().get(30, Set.of())).contains(lean);
      assertThatThrownBy(() -> table().list(Set.of(ProcessDetail.MAPPED_FILES)))
          .isInstanceOf(HostIOException.class)
          .hasMessageContaining("30");
      assertThatThrownBy(() -> table().list()).isInstanceOf(HostIOException.class);
    }

    @Test
    void doesNotReadTheMapsOfAKernelThread() throws Exception {
      Path kthread = process(2, "", "0::/\n", "");
      Files.delete(kthread.resolve("maps"));
      Files.createDirectory(
          kthread.resolve("maps")); // a kernel thread has no address space: reading would fail here

      assertThat(table().list())
          .containsExactly(new ProcessInfo(2, Optional.empty(), List.of(), "/", List.of()));
    }

    @Test
    void readsFilesLargerThanItsBufferAndReusesItForSmallerOnes() throws Exception {
      StringBuilder maps = new StringBuilder();
      for (int i = 0; i < 2_000; i++) {
        maps.append(String.format(
            "%012x-%012x r--p 00000000 fe:00 %-8d                   /usr/lib/lib%04d.so\n",
            i << 12, (i + 1) << 12, i, i));
      }
      String bigArgv = "x".repeat(40_000) + "\0";
      Path big = process(40, bigArgv, "0::/big.slice\n", maps.toString());
      Files.createSymbolicLink(big.resolve("exe"), Path.of("/usr/bin/big"));
      Path small =
          process(41, "s\0", "0::/s\n", "00400000-00401000 r-xp 00000000 fe:00 1 /usr/bin/s\n");
      Files.createSymbolicLink(small.resolve("exe"), Path.of("/usr/bin/s"));

      var processes = table().list(Set.of(ProcessDetail.MAPPED_FILES));

      assertThat(processes.get(0).argv()).containsExactly("x".repeat(40_000));
      assertThat(processes.get(0).mappedFiles())
          .hasSize(2_000)
          .startsWith("/usr/lib/lib0000.so")
          .endsWith("/usr/lib/lib1999.so");
      assertThat(processes.get(1))
          .isEqualTo(new ProcessInfo(
              41, Optional.of("/usr/bin/s"), List.of("s"), "/s", List.of("/usr/bin/s")));
    }

    @Test
    void rejectsPidsThatAreNotProcesses() {
      assertThatThrownBy(() -> table().get(0)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> table().signal(0, 9))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("pid");
      assertThatThrownBy(() -> table().signal(-1, 9)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> table().signal(123, 99))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("signal");
    }
  }

  @Nested
  class OnTheRealKernel {

    private final ProcessTable table = new ProcProcessTable(Path.of("/proc"), Syscalls.load());

    @Test
    void describesThisJvm() throws Exception {
      long self = ProcessHandle.current().pid();

      ProcessInfo me = table.get(self).orElseThrow();

      assertThat(me.exe()).hasValueSatisfying(exe -> assertThat(exe).endsWith("/java"));
      assertThat(me.argv()).isNotEmpty();
      assertThat(me.mappedFiles()).anySatisfy(f -> assertThat(f).endsWith("libjvm.so"));
      assertThat(me.cgroup()).startsWith("/");
      assertThat(table.list()).extracting(ProcessInfo::pid).contains(self);
    }

    @Test
    void identifiesThisJvmWithoutReadingItsMaps() throws Exception {
      long self = ProcessHandle.current().pid();

      ProcessInfo full = table.get(self).orElseThrow();
      ProcessInfo lean =
          table.list(Set.of()).stream().filter(p -> p.pid() == self).findFirst().orElseThrow();

      assertThat(lean).isEqualTo(full.withOnly(Set.of()));
      assertThat(lean.mappedFiles()).isEmpty();
      assertThat(table.list(Set.of()))
          .allSatisfy(p -> assertThat(p.mappedFiles()).isEmpty());
    }

    @Test
    void signalsAChildAndReportsFalseOnceItIsGone() throws Exception {
      Process sleeper = new ProcessBuilder("sleep", "60").start();
      try {
        assertThat(table.get(sleeper.pid()).orElseThrow().argv()).containsExactly("sleep", "60");

        assertThat(table.signal(sleeper.pid(), 0)).as("signal 0 probes").isTrue();
        assertThat(table.signal(sleeper.pid(), 15)).isTrue();
        assertThat(sleeper.waitFor(10, TimeUnit.SECONDS)).isTrue();

        assertThat(sleeper.exitValue()).isEqualTo(128 + 15);
        assertThat(table.signal(sleeper.pid(), 15)).isFalse();
        assertThat(table.get(sleeper.pid())).isEqualTo(Optional.empty());
      } finally {
        sleeper.destroyForcibly();
      }
    }
  }
}
