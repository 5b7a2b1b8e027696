package dev.noneops.cli.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.systemd.DbusSystemd;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TrainingBusTest {

  @Test
  void theSystemdAdapterReachesTheTrainingBusAndFailsForWantOfSystemd() throws Exception {
    Path socket;
    try (TrainingBus bus = TrainingBus.start()) {
      assertThat(bus.address()).startsWith("unix:path=");
      socket = Path.of(bus.address().substring("unix:path=".length()));
      assertThat(socket).exists();

      // Connected, authenticated and answered: the bus itself says that no systemd is on it.
      assertThatThrownBy(() -> DbusSystemd.connect(bus.address()).close())
          .isInstanceOf(SystemdException.class)
          .hasMessageContaining("org.freedesktop.systemd1");
    }
    assertThat(Files.exists(socket)).isFalse();
    assertThat(Files.exists(socket.getParent())).isFalse();
  }
}
