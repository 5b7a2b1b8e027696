package dev.noneops.ports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.commands.Command;
import dev.noneops.ports.download.Sha256;
import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.LoadState;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The value types of the ports reject what no host could act on and map systemd's words exactly. */
class PortValueTypesTest {

  @Test
  void errnoNumbersAreLinuxs() {
    assertThat(Errno.of(28)).isEqualTo(Errno.ENOSPC);
    assertThat(Errno.of(39)).isEqualTo(Errno.ENOTEMPTY);
    assertThat(Errno.ENOENT.number()).isEqualTo(2);
    assertThat(Errno.of(9999)).isEqualTo(Errno.EOTHER);
  }

  @Test
  void aHostErrorSaysWhatWasDoneToWhat() {
    HostIOException e = new HostIOException(Errno.ENOSPC, "write", "/etc/containerd/config.toml");

    assertThat(e).hasMessage("write /etc/containerd/config.toml: ENOSPC");
    assertThat(HostIOException.hasErrno(new IOException("wrapped", e), Errno.ENOSPC))
        .isTrue();
    assertThat(HostIOException.hasErrno(new IOException("wrapped", e), Errno.EIO))
        .isFalse();
  }

  @Test
  void sha256AcceptsOnlyA64CharacterHexDigest() {
    String digest = "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855";

    assertThat(new Sha256(digest + "\n").hex())
        .isEqualTo(digest.toLowerCase(java.util.Locale.ROOT));
    assertThatThrownBy(() -> new Sha256("abc"))
        .hasMessageContaining("not a SHA-256 hex digest: 'abc'");
    assertThatThrownBy(() -> new Sha256(digest.replace('E', 'g')))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aCommandNeedsAProgramAPositiveTimeoutAndAnOutputCap() {
    assertThatThrownBy(() -> new Command(List.of(), Map.of(), Duration.ofSeconds(1), 10))
        .hasMessage("a command needs at least a program");
    assertThatThrownBy(() -> Command.of(Duration.ZERO, "true"))
        .hasMessageContaining("timeout must be positive");
    assertThatThrownBy(() -> new Command(List.of("true"), Map.of(), Duration.ofSeconds(1), 0))
        .hasMessageContaining("maxOutputBytes must be positive");
    assertThat(Command.of(Duration.ofSeconds(5), "ip", "link", "show").toString())
        .isEqualTo("ip link show");
  }

  @Test
  void systemdWordsMapToTheirConstants() {
    assertThat(JobResult.fromSystemd("done")).isEqualTo(JobResult.DONE);
    assertThat(JobResult.fromSystemd("dependency")).isEqualTo(JobResult.DEPENDENCY);
    assertThat(JobResult.DONE.succeeded()).isTrue();
    assertThat(JobResult.WAIT_TIMEOUT.succeeded()).isFalse();
    assertThatThrownBy(() -> JobResult.fromSystemd("exploded")).hasMessageContaining("exploded");
    assertThat(ActiveState.fromSystemd("deactivating")).isEqualTo(ActiveState.DEACTIVATING);
    assertThat(LoadState.fromSystemd("not-found")).isEqualTo(LoadState.NOT_FOUND);
    assertThat(LoadState.fromSystemd("bad-setting")).isEqualTo(LoadState.BAD_SETTING);
  }
}
