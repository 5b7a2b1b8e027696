package dev.noneops.systemd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Unit names, bus addresses, machine ids and deadlines: what the adapter accepts before any call. */
class InputValidationTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "kubelet.service",
        "containerd.service",
        "getty@tty1.service",
        "opt-cni.mount",
        "a-b_c:d.socket",
        "localdns.slice"
      })
  void validUnitNamesPass(String name) {
    assertThat(UnitNames.requireUnitName(name)).isEqualTo(name);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "kubelet",
        "kubelet.serv",
        "../x.service",
        "a b.service",
        "x.service;rm",
        ".service"
      })
  void invalidUnitNamesAreRejectedNamingTheInput(String name) {
    assertThatThrownBy(() -> UnitNames.requireUnitName(name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + name + "'");
  }

  @Test
  void overlongAndNullUnitNamesAreRejected() {
    assertThatThrownBy(() -> UnitNames.requireUnitName("a".repeat(250) + ".service"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> UnitNames.requireUnitName(null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void unitFilesMayBeAbsolutePathsToUnitFiles() {
    assertThat(UnitNames.requireUnitFile("/opt/unbounded/node/kubelet.service"))
        .isEqualTo("/opt/unbounded/node/kubelet.service");
    assertThatThrownBy(() -> UnitNames.requireUnitFile("/etc/passwd"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> UnitNames.requireUnitFile("relative/kubelet.service"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theSystemBusComesFromTheEnvironmentOrSystemdsDefault() {
    assertThat(BusConnector.systemBusAddress(Map.of()))
        .isEqualTo("unix:path=/run/dbus/system_bus_socket");
    assertThat(BusConnector.systemBusAddress(
            Map.of("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/x/bus;unix:path=/y/bus")))
        .isEqualTo("unix:path=/x/bus");
  }

  @Test
  void theSocketOfAnAddressIsItsDecodedPath() {
    assertThat(BusConnector.socketOf("unix:path=/run/dbus/system_bus_socket,guid=abc"))
        .isEqualTo(Path.of("/run/dbus/system_bus_socket"));
    assertThat(BusConnector.socketOf("unix:path=/tmp/a%2cb%20c")).isEqualTo(Path.of("/tmp/a,b c"));
  }

  @Test
  void onlyAbsoluteUnixPathAddressesAreAccepted() {
    assertThatThrownBy(() -> BusConnector.requireUnixPathAddress("unix:path="))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> BusConnector.requireUnixPathAddress("unix:path=relative"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> BusConnector.requireUnixPathAddress(null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theMachineIdIsLookedUpWhereDbusJavaLooks() throws Exception {
    Path configured =
        Files.writeString(dir.resolve("configured"), "0123456789abcdef0123456789abcdef\n");
    Path fallback =
        Files.writeString(dir.resolve("fallback"), "fedcba9876543210fedcba9876543210\n");
    Path empty = Files.createFile(dir.resolve("empty"));

    assertThat(new MachineIdLocator(
                Map.of("DBUS_MACHINE_ID_LOCATION", configured.toString()), List.of(fallback))
            .locate())
        .contains(configured);
    assertThat(new MachineIdLocator(Map.of(), List.of(empty, fallback)).locate())
        .contains(fallback);
    assertThat(new MachineIdLocator(Map.of(), List.of(empty)).locate()).isEmpty();
  }

  @Test
  void deadlinesRejectNegativeTimeoutsAndSaturateHugeOnes() {
    assertThatThrownBy(() -> Deadline.after(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Deadline.after(Duration.ZERO).passed()).isTrue();
    assertThat(Deadline.after(Duration.ofDays(365 * 1000L)).remainingNanos())
        .isGreaterThan(Duration.ofDays(365).toNanos());
  }
}
