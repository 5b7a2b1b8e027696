package dev.noneops.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.HostFiles;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A process that does not run as root ({@code facts().privileged(false)}) meets the simulated
 * host's modes as it would a kernel's: a file it may not read, or one below a directory it may not
 * search, gives EACCES; what others may read it reads. Root reads everything.
 */
class PermissionsOfANonRootCallerTest {
  private final SimulatedHost host = SimulatedHost.create();
  private final HostFiles files = host.ports().files();

  @Test
  void aNonRootCallerGetsEaccesForAFileOthersMayNotReadOrOneBelowADirectoryTheyMayNotSearch()
      throws Exception {
    files.createDirectories(Path.of("/etc/secret"), 0750);
    files.writeDurably(Path.of("/etc/secret/config.json"), "{}", 0600);
    files.createDirectories(Path.of("/etc/open"), 0755);
    files.writeDurably(Path.of("/etc/open/private.json"), "{}", 0600);
    files.writeDurably(Path.of("/etc/open/public.json"), "{}", 0644);

    host.facts().privileged(false);

    assertEacces(() -> files.read(Path.of("/etc/secret/config.json")));
    assertEacces(() -> files.lstat(Path.of("/etc/secret/config.json")));
    assertEacces(() -> files.list(Path.of("/etc/secret")));
    assertEacces(() -> files.read(Path.of("/etc/open/private.json")));
    assertThat(files.read(Path.of("/etc/open/public.json"))).isEqualTo("{}".getBytes());
    assertThat(files.list(Path.of("/etc/open"))).contains("private.json", "public.json");
    assertThat(files.lstat(Path.of("/etc/open/private.json"))).isPresent();

    host.facts().privileged(true);

    assertThat(files.read(Path.of("/etc/secret/config.json"))).isEqualTo("{}".getBytes());
  }

  private static void assertEacces(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EACCES));
  }
}
