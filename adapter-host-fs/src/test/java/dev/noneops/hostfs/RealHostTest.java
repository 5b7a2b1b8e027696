package dev.noneops.hostfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.HostIOException;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.systemd.Systemd;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RealHostTest {

  @Test
  void buildsEveryPortOverTheRunningKernel() throws Exception {
    RealHost host = RealHost.create();
    long self = ProcessHandle.current().pid();

    assertThat(host.processes().get(self)).isPresent();
    assertThat(host.mounts().mounts()).isNotEmpty();
    assertThat(host.files().lstat(Path.of("/")).orElseThrow().isDirectory()).isTrue();
    assertThat(host.facts().read().kernelRelease()).isNotBlank();
    assertThat(host.clock().nanoTime()).isPositive();
  }

  @Test
  void readingFilesLoadsNoClassOfJnrOrJffi(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("applied.json"), "{}");
    Files.createSymbolicLink(dir.resolve("current"), Path.of("1.2.3"));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child = new ProcessBuilder(
            java.toString(),
            "-Xshare:off",
            "-Xlog:class+load=info:stdout",
            "-cp",
            System.getProperty("java.class.path"),
            ReadOnlyCommandProbe.class.getName(),
            dir.toString())
        .redirectErrorStream(true)
        .start();
    List<String> output;
    try (var lines = child.inputReader().lines()) {
      output = lines.toList();
    }
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(child.exitValue()).as(String.join("\n", output)).isZero();
    assertThat(output)
        .contains("link=1.2.3", "content={}")
        .anyMatch(l -> l.contains(ReadOnlyCommandProbe.class.getName()));
    assertThat(output).noneMatch(l -> l.contains(" jnr.") || l.contains(" com.kenai.jffi."));
  }

  @Test
  void bundlesThePortsWithASystemdAdapterFromElsewhere() {
    Systemd systemd = (Systemd) Proxy.newProxyInstance(
        Systemd.class.getClassLoader(), new Class<?>[] {Systemd.class}, (p, m, a) -> null);

    HostPorts ports = RealHost.create().ports(systemd);

    assertThat(ports.systemd()).isSameAs(systemd);
    assertThat(ports.files()).isNotNull();
  }

  @Test
  void theNotifierReadsTheEnvironmentTheHostWasBuiltWith() {
    String pid = Long.toString(ProcessHandle.current().pid());
    RealHost managed = RealHost.builder()
        .environment(Map.of(
            "NOTIFY_SOCKET",
            "/run/systemd/notify",
            "WATCHDOG_USEC",
            "3000000",
            "WATCHDOG_PID",
            pid))
        .build();
    RealHost unmanaged = RealHost.builder().environment(Map.of()).build();

    assertThat(managed.notifier().enabled()).isTrue();
    assertThat(managed.notifier().watchdogInterval()).contains(Duration.ofSeconds(3));
    assertThat(managed.ports(systemdFromElsewhere()).notifier()).isSameAs(managed.notifier());
    assertThat(unmanaged.notifier().enabled()).isFalse();
  }

  private static Systemd systemdFromElsewhere() {
    return (Systemd) Proxy.newProxyInstance(
        Systemd.class.getClassLoader(), new Class<?>[] {Systemd.class}, (p, m, a) -> null);
  }

  @Test
  void readsFromMovedRoots(@TempDir Path root) throws Exception {
    Path proc =
        Files.createDirectories(root.resolve("proc/sys/kernel")).getParent().getParent();
    Files.writeString(proc.resolve("sys/kernel/osrelease"), "9.9.9-test\n");
    Files.writeString(proc.resolve("sys/kernel/hostname"), "fake\n");
    Files.createDirectories(proc.resolve("self"));
    Files.writeString(proc.resolve("self/mountinfo"), "1 0 8:1 / / rw - ext4 /dev/fake rw\n");
    Path cgroups = Files.createDirectories(root.resolve("cgroup"));
    Files.writeString(cgroups.resolve("cgroup.controllers"), "cpu\n");

    RealHost host =
        RealHost.builder().procRoot(proc).cgroupRoot(cgroups).hostRoot(root).build();

    assertThat(host.facts().read().hostname()).isEqualTo("fake");
    assertThat(host.mounts().mounts())
        .singleElement()
        .satisfies(m -> assertThat(m.source()).isEqualTo("/dev/fake"));
    assertThat(host.files().lstat(root).orElseThrow().mountId()).isEqualTo(1);
    assertThat(host.cgroups().available()).isTrue();
    assertThat(host.processes().list()).isEmpty();
  }

  @Test
  void aMovedProcWithoutACgroupRootReachesNoCgroupHierarchy(@TempDir Path proc) throws Exception {
    assertThat(Path.of("/sys/fs/cgroup")).as("the host's cgroup mount point").isDirectory();

    var cgroups = RealHost.builder().procRoot(proc).build().cgroups();

    assertThat(cgroups.available()).isFalse();
    assertThat(cgroups.exists("/")).isFalse();
    assertThat(cgroups.children("/")).isEmpty();
    assertThat(cgroups.pids("/")).isEmpty();
    assertThat(cgroups.supportsKill()).isFalse();
    assertThatThrownBy(() -> cgroups.kill("/kubepods.slice"))
        .isInstanceOf(HostIOException.class)
        .hasMessageContaining("no cgroup root");
    assertThatThrownBy(() -> cgroups.remove("/kubepods.slice"))
        .isInstanceOf(HostIOException.class)
        .hasMessageContaining("no cgroup root");
  }

  @Test
  void theCgroupRootIsTheHostsWhenProcIsNotMovedAndTheGivenOneWhenItIs(@TempDir Path root)
      throws Exception {
    Path proc = Files.createDirectories(root.resolve("proc"));
    Path cgroups = Files.createDirectories(root.resolve("cgroup/kubepods.slice"));

    assertThat(RealHost.create().cgroups().exists("/")).isTrue();
    assertThat(RealHost.builder()
            .procRoot(proc)
            .cgroupRoot(cgroups.getParent())
            .build()
            .cgroups()
            .children("/"))
        .containsExactly("/kubepods.slice");
  }

  @Test
  void rejectsRelativeRoots() {
    assertThatThrownBy(() -> RealHost.builder().procRoot(Path.of("proc")))
        .hasMessageContaining("procRoot");
    assertThatThrownBy(() -> RealHost.builder().cgroupRoot(Path.of("cg")))
        .hasMessageContaining("cgroupRoot");
  }
}
