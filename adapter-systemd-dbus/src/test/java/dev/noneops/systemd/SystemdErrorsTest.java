package dev.noneops.systemd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.SystemdException.Kind;
import org.freedesktop.dbus.errors.AccessDenied;
import org.freedesktop.dbus.errors.NoReply;
import org.freedesktop.dbus.errors.ServiceUnknown;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.freedesktop.dbus.exceptions.NotConnected;
import org.freedesktop.systemd1.NoSuchUnit;
import org.junit.jupiter.api.Test;

class SystemdErrorsTest {
  @Test
  void eachDbusErrorClassHasItsKind() {
    assertThat(SystemdErrors.kindOf(new NoSuchUnit("Unit x.service not found.")))
        .isEqualTo(Kind.NO_SUCH_UNIT);
    assertThat(SystemdErrors.kindOf(new AccessDenied("Rejected send message")))
        .isEqualTo(Kind.ACCESS_DENIED);
    assertThat(SystemdErrors.kindOf(
            new DBusExecutionException(SystemdErrors.INTERACTIVE_AUTHORIZATION_REQUIRED)))
        .isEqualTo(Kind.ACCESS_DENIED);
    assertThat(SystemdErrors.kindOf(new NotConnected("Not Connected"))).isEqualTo(Kind.UNREACHABLE);
    assertThat(SystemdErrors.kindOf(new NoReply("No reply within specified time")))
        .isEqualTo(Kind.UNREACHABLE);
    assertThat(SystemdErrors.kindOf(new ServiceUnknown("The name is not activatable")))
        .isEqualTo(Kind.UNREACHABLE);
    assertThat(SystemdErrors.kindOf(new DBusExecutionException("Unit x.service is masked.")))
        .isEqualTo(Kind.OTHER);
  }

  @Test
  void theExceptionNamesTheActionTheUnitAndSystemdsMessage() {
    SystemdException mapped = SystemdErrors.fromCall(
        "start", "kubelet.service", new NoSuchUnit("Unit kubelet.service not found."));

    assertThat(mapped.kind()).isEqualTo(Kind.NO_SUCH_UNIT);
    assertThat(mapped.unit()).isEqualTo("kubelet.service");
    assertThat(mapped.getMessage())
        .isEqualTo("systemd: start kubelet.service failed: Unit kubelet.service not found.");
    assertThat(mapped.getCause()).isInstanceOf(NoSuchUnit.class);
  }
}
