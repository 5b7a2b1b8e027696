package dev.noneops.acceptance.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.noneops.testkit.fixtures.sandbox.CompletedJob;
import dev.noneops.testkit.fixtures.sandbox.SandboxDisk;
import dev.noneops.testkit.fixtures.sandbox.SandboxRequirements;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.sandbox.UnitTimes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A sandbox on a {@link SandboxDisk} loses its power and a new sandbox boots on the same disk: the
 * reboot finds what was written before the cut and starts the enabled units by itself, in their
 * dependency order, which the new boot's own records show.
 */
class SandboxPowerCutSystemTest {
  private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(90);
  private static final String ONESHOT = "noneops-powercut-first.service";
  private static final String SERVICE = "noneops-powercut-second.service";
  private static final String BOOTS_FILE = "/var/lib/noneops-powercut/boots";
  private static final String FAIL_FLAG = "/etc/noneops-powercut-fail";

  @BeforeEach
  void needsRoot() {
    assumeThat(SandboxRequirements.unmetReason()).as("sandbox requirements").isEmpty();
  }

  @Test
  void aRebootOnTheSameDiskRunsTheEnabledOneshotToTheEndBeforeTheServiceThatRequiresIt()
      throws IOException {
    try (SandboxDisk disk = SandboxDisk.create("powercut-order")) {
      SystemdSandbox before = SystemdSandbox.boot("powercut-order-1", disk, BOOT_TIMEOUT);
      installAndEnableBothUnits(before);
      before.systemctl("start", SERVICE).orThrow();
      assertThat(Files.readAllLines(before.path(BOOTS_FILE))).hasSize(1);

      before.powerCut();

      assertThat(ProcessHandle.of(before.pid())).isEmpty();
      assertThat(Files.readAllLines(disk.written(BOOTS_FILE)))
          .as("written before the cut, on the disk")
          .hasSize(1);
      assertThat(Path.of("/etc/systemd/system", ONESHOT)).as("the host's own").doesNotExist();

      try (SystemdSandbox after = SystemdSandbox.boot("powercut-order-2", disk, BOOT_TIMEOUT)) {
        System.out.println("sandbox on a disk: first boot " + before.bootTime().toMillis()
            + " ms, reboot after the power cut " + after.bootTime().toMillis() + " ms");
        List<String> boots = Files.readAllLines(after.path(BOOTS_FILE));
        assertThat(boots).as("one line from each boot").hasSize(2).doesNotHaveDuplicates();

        List<UnitTimes> times = after.unitTimes(List.of(SERVICE, ONESHOT));
        assertThat(times).extracting(UnitTimes::unit).containsExactly(ONESHOT, SERVICE);
        UnitTimes oneshot = times.get(0);
        UnitTimes service = times.get(1);
        assertThat(oneshot.activeState()).isEqualTo("active");
        assertThat(service.subState()).isEqualTo("running");
        assertThat(oneshot.finishedBefore(service))
            .as("the oneshot finished (%s) before the service started (%s)", oneshot, service)
            .isTrue();
        assertThat(oneshot.activeMonotonicMicros() - oneshot.startedMonotonicMicros())
            .as("the oneshot's sleep, in microseconds")
            .isGreaterThanOrEqualTo(300_000);
        assertThat(service.startedAt()).isPresent();
        assertThat(oneshot.activeAt().orElseThrow())
            .isBeforeOrEqualTo(service.startedAt().get());
        assertThat(after.jobResults())
            .filteredOn(job -> job.unit().equals(ONESHOT) || job.unit().equals(SERVICE))
            .extracting(CompletedJob::unit, CompletedJob::type, CompletedJob::result)
            .containsExactly(tuple(ONESHOT, "start", "done"), tuple(SERVICE, "start", "done"));
        assertThat(after.bootJournal())
            .as("a volatile journal of its own, from journald's start on")
            .containsPattern("Runtime Journal \\(/run/log/journal/[0-9a-f]+\\) is .*, max 64\\.0M")
            .contains("Finished systemd-tmpfiles-setup.service")
            .contains("Finished " + ONESHOT)
            .contains("Started " + SERVICE);
      }
    }
  }

  @Test
  void whenTheOneshotFailsAtTheRebootTheServiceThatRequiresItIsNotStarted() throws IOException {
    try (SandboxDisk disk = SandboxDisk.create("powercut-fail")) {
      SystemdSandbox before = SystemdSandbox.boot("powercut-fail-1", disk, BOOT_TIMEOUT);
      installAndEnableBothUnits(before);
      Files.writeString(before.path(FAIL_FLAG), "the oneshot fails at the next boot\n");

      before.powerCut();

      try (SystemdSandbox after = SystemdSandbox.boot("powercut-fail-2", disk, BOOT_TIMEOUT)) {
        assertThat(after.failedAtBoot()).containsExactly(ONESHOT);
        List<UnitTimes> times = after.unitTimes(List.of(ONESHOT, SERVICE));
        assertThat(times.get(0).unit()).isEqualTo(ONESHOT);
        assertThat(times.get(0).activeState()).isEqualTo("failed");
        assertThat(times.get(0).result()).isEqualTo("exit-code");
        assertThat(times.get(0).becameActive()).isFalse();
        assertThat(times.get(1).unit()).isEqualTo(SERVICE);
        assertThat(times.get(1).started()).as("the service, %s", times.get(1)).isFalse();
        assertThat(after.jobResults())
            .filteredOn(job -> job.unit().equals(SERVICE))
            .extracting(CompletedJob::type, CompletedJob::result)
            .containsExactly(tuple("start", "dependency"));
        assertThat(after.exec("pgrep", "-x", "sleep").stdout()).isBlank();
      }
    }
  }

  @Test
  void aClosedDiskLeavesNothingOnTheHostAndStopsTheSandboxOnIt() throws IOException {
    SandboxDisk disk = SandboxDisk.create("powercut-leftovers");
    Path directory = disk.directory();
    SystemdSandbox sandbox = SystemdSandbox.boot("powercut-leftovers", disk, BOOT_TIMEOUT);
    ProcessHandle init = ProcessHandle.of(sandbox.pid()).orElseThrow();
    sandbox
        .exec("sh", "-c", "mkdir -p /var/lib/probe && echo on-disk > /var/lib/probe/file")
        .orThrow();
    assertThat(disk.written("/var/lib/probe/file")).hasContent("on-disk");
    assertThatThrownBy(() -> SystemdSandbox.boot("powercut-second-on-disk", disk, BOOT_TIMEOUT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("in use by sandbox powercut-leftovers");

    disk.close();
    disk.close();

    assertThat(init.onExit()).succeedsWithin(Duration.ofSeconds(10));
    assertThat(directory).doesNotExist();
    String jvm = Long.toString(ProcessHandle.current().pid());
    try (Stream<Path> left = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.startsWith("noneops-disk-powercut-leftovers-" + jvm))
          .noneMatch(n -> n.startsWith("noneops-sandbox-powercut-leftovers-" + jvm));
    }
    Path unified = Files.isDirectory(Path.of("/sys/fs/cgroup/unified"))
        ? Path.of("/sys/fs/cgroup/unified")
        : Path.of("/sys/fs/cgroup");
    try (Stream<Path> cgroups = Files.list(unified)) {
      assertThat(cgroups.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.startsWith("noneops-sandbox-powercut-leftovers-"));
    }
  }

  private static void installAndEnableBothUnits(SystemdSandbox sandbox) throws IOException {
    Files.writeString(
        sandbox.path("/etc/systemd/system/" + ONESHOT), """
        [Unit]
        Description=noneops power-cut test: a oneshot that records each boot

        [Service]
        Type=oneshot
        RemainAfterExit=yes
        ExecStart=/bin/sh -c 'mkdir -p /var/lib/noneops-powercut && echo "$INVOCATION_ID" >> %s && sleep 0.3'
        ExecStart=/bin/sh -c '! test -e %s'

        [Install]
        WantedBy=multi-user.target
        """.formatted(BOOTS_FILE, FAIL_FLAG));
    Files.writeString(sandbox.path("/etc/systemd/system/" + SERVICE), """
        [Unit]
        Description=noneops power-cut test: a service that requires the oneshot
        Requires=%1$s
        After=%1$s

        [Service]
        ExecStart=/bin/sleep infinity

        [Install]
        WantedBy=multi-user.target
        """.formatted(ONESHOT));
    sandbox.systemctl("daemon-reload").orThrow();
    sandbox.systemctl("enable", ONESHOT, SERVICE).orThrow();
  }
}
