package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.KeepReason;
import dev.noneops.core.node.TeardownAction;
import dev.noneops.core.node.TeardownOptions;
import dev.noneops.core.node.internal.render.UnitFiles;
import dev.noneops.core.node.internal.render.UnitFiles.Scan;
import dev.noneops.core.node.internal.render.UnitFiles.UnitFile;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Stops, disables and removes the units and drop-ins this node wrote, through systemd. Units and
 * drop-ins without the marker line are never touched, only reported. The order (stop, disable,
 * remove the files, reload) makes every prefix of it safe to run again: a unit whose file is gone
 * was already stopped and disabled.
 */
public final class UnitTeardown {
  public static final int SIGKILL = 9;

  private final HostFiles files;
  private final Systemd systemd;
  private final UnitFiles unitFiles;
  private final HostPaths paths;
  private final TeardownOptions settings;

  public UnitTeardown(HostFiles files, Systemd systemd, HostPaths paths, TeardownOptions settings) {
    this.files = files;
    this.systemd = systemd;
    this.paths = paths;
    this.unitFiles = new UnitFiles(files, paths);
    this.settings = settings;
  }

  /** Stops every unit this node owns, kubelet first. */
  public void stop(ReportBuilder report) {
    Optional<Scan> scan = scan(report);
    if (scan.isEmpty()) {
      return;
    }
    for (String unit : scan.get().ownedUnits()) {
      stopUnit(unit, report);
    }
  }

  /**
   * Stops, disables and removes this node's units and drop-ins, then reloads systemd. The units
   * and drop-ins of others are named in the report whenever this node's were found beside them
   * (so a reset names them once, in the step that removed this node's).
   */
  public void remove(ReportBuilder report) {
    Optional<Scan> found = scan(report);
    if (found.isEmpty()) {
      return;
    }
    Scan scan = found.get();
    if (!scan.owned().isEmpty()) {
      for (UnitFile foreign : scan.foreign()) {
        report.kept(
            KeepReason.FOREIGN_UNIT,
            foreign.path(),
            "no '" + HostPaths.UNIT_MARKER + "' line: not written by this node");
      }
    }
    List<String> units = scan.ownedUnits();
    for (String unit : units) {
      stopUnit(unit, report);
    }
    for (String unit : units) {
      disable(unit, report);
    }
    Set<Path> dropInDirs = new LinkedHashSet<>();
    for (UnitFile dropIn : scan.ownedDropIns()) {
      removeFile(dropIn.path(), report);
      dropInDirs.add(dropIn.path().getParent());
    }
    for (String unit : UnitFiles.NODE_UNITS) {
      dropInDirs.add(paths.systemdDir().resolve(unit + ".d"));
    }
    for (Path dir : dropInDirs) {
      removeIfEmpty(dir, report);
    }
    for (UnitFile unit : scan.ownedUnitFiles()) {
      removeEnablementLinks(unit, report);
      removeFile(unit.path(), report);
    }
    try {
      systemd.daemonReload();
      report.removed(TeardownAction.SYSTEMD_RELOADED, "systemd", "");
    } catch (SystemdException e) {
      report.failed("systemd", "daemon-reload", e);
    }
  }

  private Optional<Scan> scan(ReportBuilder report) {
    try {
      return Optional.of(unitFiles.scan());
    } catch (IOException e) {
      report.failed(paths.systemdDir(), "scan unit files", e);
      return Optional.empty();
    }
  }

  private void stopUnit(String unit, ReportBuilder report) {
    try {
      UnitStatus before = systemd.status(unit);
      if (before.active() == ActiveState.INACTIVE) {
        return;
      }
      if (before.active() == ActiveState.FAILED) {
        systemd.resetFailed(unit);
        return;
      }
      JobResult result = systemd.stop(unit, settings.unitStopTimeout());
      UnitStatus after = systemd.status(unit);
      String how = "stop job " + result.name().toLowerCase(Locale.ROOT);
      if (!result.succeeded() || stillUp(after)) {
        systemd.kill(unit, true, SIGKILL);
        after = systemd.awaitState(
            unit, Set.of(ActiveState.INACTIVE, ActiveState.FAILED), settings.unitStopTimeout());
        how += ", then SIGKILL to all its processes";
      }
      if (stillUp(after)) {
        report.kept(
            KeepReason.STILL_RUNNING,
            unit,
            how + "; still " + after.active().name().toLowerCase(Locale.ROOT));
        return;
      }
      report.removed(TeardownAction.UNIT_STOPPED, unit, how);
      if (after.isFailed()) {
        systemd.resetFailed(unit);
      }
    } catch (SystemdException e) {
      if (e.kind() != SystemdException.Kind.NO_SUCH_UNIT) {
        report.failed(unit, "stop", e);
      }
    }
  }

  private void disable(String unit, ReportBuilder report) {
    try {
      systemd.disable(List.of(unit));
      report.removed(TeardownAction.UNIT_DISABLED, unit);
    } catch (SystemdException e) {
      if (e.kind() != SystemdException.Kind.NO_SUCH_UNIT) {
        report.failed(unit, "disable", e);
      }
    }
  }

  private void removeFile(Path path, ReportBuilder report) {
    try {
      files.removeDurably(path);
      report.removed(TeardownAction.UNIT_FILE_REMOVED, path);
    } catch (IOException e) {
      if (!HostIOException.hasErrno(e, Errno.ENOENT)) {
        report.failed(path, "remove", e);
      }
    }
  }

  /**
   * Removes the {@code *.wants}/{@code *.requires} links that still point at this node's unit
   * file, which {@code disable} normally removed already; they would dangle once the file is gone.
   * Only links whose target is exactly that file are touched.
   */
  private void removeEnablementLinks(UnitFile unit, ReportBuilder report) {
    Path dir = paths.systemdDir();
    try {
      for (String name : files.list(dir)) {
        if (!name.endsWith(".wants") && !name.endsWith(".requires")) {
          continue;
        }
        Path link = dir.resolve(name).resolve(unit.unit());
        Optional<FileMeta> meta = files.lstat(link);
        if (meta.isEmpty() || !meta.get().isSymlink()) {
          continue;
        }
        String target = files.readLink(link);
        if (dir.resolve(name).resolve(target).normalize().equals(unit.path())) {
          files.removeDurably(link);
          report.removed(
              TeardownAction.UNIT_FILE_REMOVED, link, "enablement link to " + unit.path());
        }
      }
    } catch (IOException e) {
      if (!HostIOException.hasErrno(e, Errno.ENOENT)) {
        report.failed(dir, "remove enablement links of " + unit.unit(), e);
      }
    }
  }

  private void removeIfEmpty(Path dir, ReportBuilder report) {
    try {
      Optional<FileMeta> meta = files.lstat(dir);
      if (meta.isEmpty() || !meta.get().isDirectory()) {
        return;
      }
      List<String> entries = files.list(dir);
      if (!entries.isEmpty()) {
        report.kept(
            KeepReason.HOLDS_KEPT_ENTRIES, dir, "still holds " + String.join(", ", entries));
        return;
      }
      files.removeDurably(dir);
      report.removed(TeardownAction.DIRECTORY_REMOVED, dir);
    } catch (IOException e) {
      if (!HostIOException.hasErrno(e, Errno.ENOENT)) {
        report.failed(dir, "remove drop-in directory", e);
      }
    }
  }

  private static boolean stillUp(UnitStatus status) {
    return status.active() != ActiveState.INACTIVE && status.active() != ActiveState.FAILED;
  }
}
