package dev.noneops.systemd.internal.dbus;

import java.util.List;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.messages.DBusSignal;
import org.freedesktop.dbus.types.UInt32;

/**
 * The part of systemd's {@code org.freedesktop.systemd1.Manager} interface this adapter calls, with
 * the exact D-Bus signatures of {@code org.freedesktop.systemd1(5)}.
 *
 * <p>Method names are the D-Bus member names verbatim (dbus-java derives the member name from the
 * Java name), hence the PascalCase. {@code u} is {@link UInt32}, {@code i} is {@code int}, {@code o}
 * is {@link DBusPath}.
 */
@DBusInterfaceName(SystemdManager.INTERFACE)
public interface SystemdManager extends DBusInterface {

  String BUS_NAME = "org.freedesktop.systemd1";
  String OBJECT_PATH = "/org/freedesktop/systemd1";
  String INTERFACE = "org.freedesktop.systemd1.Manager";

  /** {@code StartUnit(s name, s mode) → o job}. */
  DBusPath StartUnit(String name, String mode);

  /** {@code StopUnit(s name, s mode) → o job}. */
  DBusPath StopUnit(String name, String mode);

  /** {@code RestartUnit(s name, s mode) → o job}. */
  DBusPath RestartUnit(String name, String mode);

  /** {@code GetUnit(s name) → o unit}; fails with {@code NoSuchUnit} when the unit is not loaded. */
  DBusPath GetUnit(String name);

  /** {@code LoadUnit(s name) → o unit}; loads the unit from disk when needed. */
  DBusPath LoadUnit(String name);

  /** {@code Reload()}: daemon-reload; systemd replies once the reload finished. */
  void Reload();

  /** {@code Subscribe()}: asks systemd to send job and unit signals to this connection. */
  void Subscribe();

  /** {@code ResetFailedUnit(s name)}. */
  void ResetFailedUnit(String name);

  /** {@code KillUnit(s name, s whom, i signal)}; {@code whom} is {@code main}, {@code control} or {@code all}. */
  void KillUnit(String name, String whom, int signal);

  /** {@code EnableUnitFiles(as files, b runtime, b force) → (b carries_install_info, a(sss) changes)}. */
  EnableUnitFilesResult<Boolean, List<UnitFileChange>> EnableUnitFiles(
      List<String> files, boolean runtime, boolean force);

  /** {@code DisableUnitFiles(as files, b runtime) → a(sss) changes}. */
  List<UnitFileChange> DisableUnitFiles(List<String> files, boolean runtime);

  /** Signal {@code JobRemoved(u id, o job, s unit, s result)}: a job ended. */
  class JobRemoved extends DBusSignal {
    private final UInt32 id;
    private final DBusPath job;
    private final String unit;
    private final String result;

    public JobRemoved(String path, UInt32 id, DBusPath job, String unit, String result)
        throws DBusException {
      super(path, id, job, unit, result);
      this.id = id;
      this.job = job;
      this.unit = unit;
      this.result = result;
    }

    public UInt32 id() {
      return id;
    }

    public DBusPath job() {
      return job;
    }

    public String unit() {
      return unit;
    }

    /** {@code done}, {@code canceled}, {@code timeout}, {@code failed}, {@code dependency}, {@code skipped}, ... */
    public String result() {
      return result;
    }
  }
}
