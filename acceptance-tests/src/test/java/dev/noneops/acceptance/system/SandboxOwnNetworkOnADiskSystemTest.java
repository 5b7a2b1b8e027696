package dev.noneops.acceptance.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import dev.noneops.testkit.fixtures.sandbox.ExecResult;
import dev.noneops.testkit.fixtures.sandbox.SandboxDisk;
import dev.noneops.testkit.fixtures.sandbox.SandboxLoopbackRelay;
import dev.noneops.testkit.fixtures.sandbox.SandboxNetwork;
import dev.noneops.testkit.fixtures.sandbox.SandboxRequirements;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sandbox with a network of its own on a disk with a separate volume, as the demo boots it: a
 * server on the host's loopback is reached at the same address inside only through a {@link
 * SandboxLoopbackRelay}, the volume is a mount point of the host's file system (no overlay) whose
 * content outlives a power cut, and after the reboot the relay is opened again for the new
 * network namespace.
 */
class SandboxOwnNetworkOnADiskSystemTest {
  private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(90);
  private static final String VOLUME = "/var/lib/containerd";

  @BeforeEach
  void needsRoot() {
    assumeThat(SandboxRequirements.unmetReason()).as("sandbox requirements").isEmpty();
  }

  @Test
  void theHostsServerIsReachedInsideOnlyThroughTheRelayAndTheVolumeSurvivesThePowerCut(
      @TempDir Path served) throws Exception {
    Files.writeString(served.resolve("hello.txt"), "served from the host\n");
    try (ArtifactServer server = ArtifactServer.serve(served);
        SandboxDisk disk = SandboxDisk.create("own-net").withSeparateVolume(VOLUME)) {
      String url = server.uri("hello.txt").toString();
      SystemdSandbox first =
          SystemdSandbox.boot("own-net-1", disk, SandboxNetwork.OWN, BOOT_TIMEOUT);
      assertThat(curl(first, url).succeeded())
          .as("the host's loopback is not the sandbox's")
          .isFalse();
      int port = server.uri().getPort();
      try (SandboxLoopbackRelay relay = SandboxLoopbackRelay.open(first, port)) {
        ExecResult fetched = curl(first, url);
        assertThat(fetched.stdout()).as(fetched.stderr()).isEqualTo("served from the host\n");
      }
      assertThat(curl(first, url).succeeded()).as("after the relay closed").isFalse();
      assertThat(first
              .exec("findmnt", "-n", "-o", "FSTYPE", VOLUME)
              .orThrow()
              .stdout()
              .strip())
          .as("the volume's file system")
          .isNotEqualTo("overlay")
          .isNotEmpty();
      first.exec("sh", "-c", "echo kept > " + VOLUME + "/marker").orThrow();

      first.powerCut();

      try (SystemdSandbox second =
          SystemdSandbox.boot("own-net-2", disk, SandboxNetwork.OWN, BOOT_TIMEOUT)) {
        assertThat(second.exec("cat", VOLUME + "/marker").orThrow().stdout()).isEqualTo("kept\n");
        assertThat(second.exec("mountpoint", "-q", VOLUME).succeeded()).isTrue();
        try (SandboxLoopbackRelay again = SandboxLoopbackRelay.open(second, port)) {
          assertThat(curl(second, url).stdout()).isEqualTo("served from the host\n");
        }
      }
      assertThat(server.requests()).hasSize(2);
    }
  }

  private static ExecResult curl(SystemdSandbox sandbox, String url) {
    return sandbox.exec(
        List.of("curl", "-sS", "--max-time", "5", "-o", "-", url), Duration.ofSeconds(20));
  }
}
