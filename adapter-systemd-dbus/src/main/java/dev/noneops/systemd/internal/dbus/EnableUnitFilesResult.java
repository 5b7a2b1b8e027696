package dev.noneops.systemd.internal.dbus;

import org.freedesktop.dbus.Tuple;
import org.freedesktop.dbus.annotations.Position;

/**
 * The {@code (b, a(sss))} reply of {@code EnableUnitFiles}. Generic because dbus-java cannot export
 * or read a tuple whose fields are declared with a raw collection type.
 *
 * @param <A> {@link Boolean}: whether the unit files carried install information
 * @param <B> {@code List<UnitFileChange>}: the symlinks created or removed
 */
public final class EnableUnitFilesResult<A, B> extends Tuple {
  @Position(0)
  private final A carriesInstallInfo;

  @Position(1)
  private final B changes;

  public EnableUnitFilesResult(A carriesInstallInfo, B changes) {
    this.carriesInstallInfo = carriesInstallInfo;
    this.changes = changes;
  }

  public A carriesInstallInfo() {
    return carriesInstallInfo;
  }

  public B changes() {
    return changes;
  }
}
