package dev.noneops.systemd.internal.dbus;

import org.freedesktop.dbus.Struct;
import org.freedesktop.dbus.annotations.Position;

/** One {@code (sss)} entry of a unit-file change list: {@code symlink}/{@code unlink}, file, destination. */
public final class UnitFileChange extends Struct {
  @Position(0)
  private final String type;

  @Position(1)
  private final String file;

  @Position(2)
  private final String destination;

  public UnitFileChange(String type, String file, String destination) {
    this.type = type;
    this.file = file;
    this.destination = destination;
  }

  public String type() {
    return type;
  }

  public String file() {
    return file;
  }

  public String destination() {
    return destination;
  }
}
