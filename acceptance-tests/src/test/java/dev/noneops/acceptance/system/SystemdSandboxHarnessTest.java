package dev.noneops.acceptance.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.noneops.testkit.fixtures.sandbox.SandboxRequirements;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sandbox harness itself: it boots a real systemd, isolates it, and leaves nothing behind. */
class SystemdSandboxHarnessTest {
  private static final List<String> SHARED_SYSCTLS = List.of(
      "fs/protected_fifos",
      "fs/protected_hardlinks",
      "fs/protected_regular",
      "fs/protected_symlinks",
      "kernel/pid_max");

  @BeforeEach
  void needsRoot() {
    assumeThat(SandboxRequirements.unmetReason()).as("sandbox requirements").isEmpty();
  }

  @Test
  void bootsARealSystemdWithItsBusReachableFromTheHost() {
    try (SystemdSandbox sandbox = SystemdSandbox.boot("harness-boot")) {
      System.out.println("sandbox boot time: " + sandbox.bootTime().toMillis()
          + " ms; failed at boot: " + sandbox.failedAtBoot());

      assertThat(sandbox.systemctl("is-system-running").stdout().strip()).isEqualTo("running");
      assertThat(sandbox.failedAtBoot()).isEmpty();
      assertThat(sandbox.exec("cat", "/proc/1/comm").stdout().strip()).isEqualTo("systemd");
      assertThat(sandbox.busAddress())
          .isEqualTo("unix:path=/proc/" + sandbox.pid() + "/root/run/dbus/system_bus_socket");
      assertThat(sandbox.path("/run/dbus/system_bus_socket")).exists();
      assertThat(sandbox.systemctl("is-active", "dbus.service").stdout().strip())
          .isEqualTo("active");
    }
  }

  @Test
  void whatTheSandboxWritesStaysInTheSandbox() throws IOException {
    Path probe = Path.of("/etc/noneops-sandbox-probe");
    assumeThat(probe).doesNotExist();
    List<String> hostDevBefore = listing(Path.of("/dev"));
    List<String> sysctlsBefore = sysctls();

    try (SystemdSandbox sandbox = SystemdSandbox.boot("harness-isolation")) {
      Files.writeString(sandbox.path(probe.toString()), "written from the host into the sandbox\n");

      assertThat(sandbox.exec("cat", probe.toString()).stdout())
          .isEqualTo("written from the host into the sandbox\n");
      assertThat(sandbox
              .exec("sh", "-c", "echo inside > /etc/noneops-sandbox-probe-2")
              .succeeded())
          .isTrue();
      assertThat(probe).doesNotExist();
      assertThat(Path.of("/etc/noneops-sandbox-probe-2")).doesNotExist();
      assertThat(listing(Path.of("/dev"))).as("the host's /dev").isEqualTo(hostDevBefore);
      assertThat(sysctls()).as("sysctls the host shares").isEqualTo(sysctlsBefore);
    }
  }

  @Test
  void closeKillsTheNamespaceByPidAndRemovesItsCgroupAndFiles() throws Exception {
    SystemdSandbox sandbox = SystemdSandbox.boot("harness-close");
    long pid = sandbox.pid();
    ProcessHandle init = ProcessHandle.of(pid).orElseThrow();
    assertThat(sandbox
            .exec("systemd-run", "--unit=noneops-lingering", "/bin/sleep", "1000")
            .succeeded())
        .isTrue();
    String cgroupOfInit = Files.readString(Path.of("/proc", Long.toString(pid), "cgroup"));

    sandbox.close();
    sandbox.close();

    assertThat(init.onExit()).succeedsWithin(java.time.Duration.ofSeconds(10));
    assertThat(cgroupOfInit).contains("noneops-sandbox-harness-close-");
    try (Stream<Path> left = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      assertThat(left.map(Path::getFileName).map(Path::toString))
          .noneMatch(n -> n.startsWith(
              "noneops-sandbox-harness-close-" + ProcessHandle.current().pid()));
    }
    assertThat(cgroupDirectoriesNamed("noneops-sandbox-harness-close-")).isEmpty();
  }

  @Test
  void aSandboxDiesWithItsJvmEvenWhenThatJvmIsKilledAndTheNextBootClearsWhatItLeft()
      throws Exception {
    Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
    Process owner = new ProcessBuilder(
            javaBin.toString(),
            "-cp",
            System.getProperty("java.class.path"),
            SandboxOwnerProcess.class.getName(),
            "harness-orphan")
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    long ownerPid = owner.pid();
    ProcessHandle init;
    try (java.io.BufferedReader out =
        new java.io.BufferedReader(new java.io.InputStreamReader(owner.getInputStream()))) {
      String line = out.readLine();
      assertThat(line).as("the owner JVM's report").startsWith("sandbox-pid ");
      init = ProcessHandle.of(Long.parseLong(line.substring("sandbox-pid ".length())))
          .orElseThrow();
    } finally {
      owner.destroyForcibly();
    }

    assertThat(init.onExit())
        .as("the sandbox PID 1 after its JVM got SIGKILL")
        .succeedsWithin(java.time.Duration.ofSeconds(20));
    assertThat(cgroupDirectoriesNamed("noneops-sandbox-harness-orphan-" + ownerPid))
        .as("left behind by the killed JVM")
        .hasSize(1);

    try (SystemdSandbox next = SystemdSandbox.boot("harness-after-orphan")) {
      assertThat(cgroupDirectoriesNamed("noneops-sandbox-harness-orphan-"))
          .as("cleared by the next boot")
          .isEmpty();
      try (Stream<Path> temp = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
        assertThat(temp.map(p -> p.getFileName().toString()))
            .noneMatch(n -> n.startsWith("noneops-sandbox-harness-orphan-"));
      }
    }
  }

  private static List<String> cgroupDirectoriesNamed(String prefix) throws IOException {
    Path unified = Files.isDirectory(Path.of("/sys/fs/cgroup/unified"))
        ? Path.of("/sys/fs/cgroup/unified")
        : Path.of("/sys/fs/cgroup");
    try (Stream<Path> entries = Files.list(unified)) {
      return entries
          .map(Path::getFileName)
          .map(Path::toString)
          .filter(n -> n.startsWith(prefix))
          .toList();
    }
  }

  private static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(Path::getFileName).map(Path::toString).sorted().toList();
    }
  }

  private static List<String> sysctls() throws IOException {
    List<String> values = new java.util.ArrayList<>();
    for (String key : SHARED_SYSCTLS) {
      values.add(key + "=" + Files.readString(Path.of("/proc/sys", key)).strip());
    }
    return values;
  }
}
