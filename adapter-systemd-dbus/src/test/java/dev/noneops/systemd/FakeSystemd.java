package dev.noneops.systemd;

import dev.noneops.systemd.internal.dbus.EnableUnitFilesResult;
import dev.noneops.systemd.internal.dbus.SystemdManager;
import dev.noneops.systemd.internal.dbus.UnitFileChange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.errors.UnknownProperty;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.freedesktop.dbus.interfaces.Properties;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.UInt64;
import org.freedesktop.dbus.types.Variant;
import org.freedesktop.systemd1.NoSuchUnit;

/**
 * A scripted {@code org.freedesktop.systemd1} exported on a private bus: the Manager methods the
 * adapter calls, unit objects answering {@code Properties.Get}, and {@code JobRemoved} and {@code
 * PropertiesChanged} signals sent when and how a test asks.
 */
final class FakeSystemd implements AutoCloseable {
  /** When the {@code JobRemoved} of a job is sent, relative to the method reply carrying its path. */
  enum Emission {
    BEFORE_REPLY,
    AFTER_REPLY,
    NEVER
  }

  private final DBusConnection server;
  private final Map<String, FakeUnit> units = new ConcurrentHashMap<>();
  private final List<String> calls = new CopyOnWriteArrayList<>();
  private final AtomicLong jobIds = new AtomicLong(100);
  private final ScheduledExecutorService emitter = Executors.newSingleThreadScheduledExecutor();
  private volatile String nextJobResult = "done";
  private volatile Emission nextEmission = Emission.AFTER_REPLY;
  private volatile boolean noiseBeforeEachJob;

  private FakeSystemd(DBusConnection server) throws DBusException {
    this.server = server;
    server.exportObject(SystemdManager.OBJECT_PATH, new FakeManager());
    server.requestBusName(SystemdManager.BUS_NAME);
  }

  static FakeSystemd exportOn(String address) throws DBusException {
    return new FakeSystemd(
        DBusConnectionBuilder.forAddress(address).withShared(false).build());
  }

  /** Adds a loaded, inactive service with a unit file. */
  FakeUnit addService(String name) throws DBusException {
    FakeUnit unit = new FakeUnit(name, "loaded", "/etc/systemd/system/" + name);
    units.put(name, unit);
    server.exportObject(unit.path, unit);
    return unit;
  }

  /** How the next jobs end: systemd's result string and when the signal is sent. */
  void scriptJobs(String result, Emission emission) {
    this.nextJobResult = result;
    this.nextEmission = emission;
  }

  /** Sends, before each job's own signal, a {@code JobRemoved} of another job that failed. */
  void emitForeignJobBeforeEachJob() {
    this.noiseBeforeEachJob = true;
  }

  /** Every Manager call received, as {@code "Member arg1 arg2 ..."}. */
  List<String> calls() {
    return List.copyOf(calls);
  }

  FakeUnit unit(String name) {
    return units.get(name);
  }

  /** Changes a unit's {@code ActiveState} after {@code delayMillis} and emits {@code PropertiesChanged}. */
  void changeStateLater(String name, String active, String sub, long delayMillis) {
    emitter.schedule(
        () -> changeState(units.get(name), active, sub), delayMillis, TimeUnit.MILLISECONDS);
  }

  /** Changes a unit's {@code ActiveState} after {@code delayMillis} without telling anyone (no signal). */
  void changeStateSilentlyLater(String name, String active, String sub, long delayMillis) {
    emitter.schedule(
        () -> {
          FakeUnit unit = units.get(name);
          unit.active = active;
          unit.sub = sub;
        },
        delayMillis,
        TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() throws IOException {
    emitter.shutdownNow();
    server.close();
  }

  private void changeState(FakeUnit unit, String active, String sub) {
    unit.active = active;
    unit.sub = sub;
    try {
      server.sendMessage(new Properties.PropertiesChanged(
          unit.path,
          UnitStateReader.UNIT_INTERFACE,
          Map.of("ActiveState", new Variant<>(active), "SubState", new Variant<>(sub)),
          List.of()));
    } catch (DBusException e) {
      throw new IllegalStateException(e);
    }
  }

  private void sendJobRemoved(long id, String jobPath, String unit, String result) {
    try {
      server.sendMessage(new SystemdManager.JobRemoved(
          SystemdManager.OBJECT_PATH, new UInt32(id), new DBusPath(jobPath), unit, result));
    } catch (DBusException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A unit with a unit file, loaded now if it was not (as systemd loads units on demand). */
  private FakeUnit knownUnit(String name, String notFoundMessage) {
    FakeUnit unit = units.get(name);
    if (unit == null || unit.load.equals("not-found")) {
      throw new NoSuchUnit(notFoundMessage.formatted(name));
    }
    unit.loaded = true;
    return unit;
  }

  /** A unit that is loaded right now; systemd answers NoSuchUnit for any other. */
  private FakeUnit loadedUnit(String name) {
    FakeUnit unit = units.get(name);
    if (unit == null || unit.load.equals("not-found") || !unit.loaded) {
      throw new NoSuchUnit("Unit %s not loaded.".formatted(name));
    }
    return unit;
  }

  /** Makes systemd forget a loaded unit, as it does with inactive units nothing references. */
  void unload(String name) {
    units.get(name).loaded = false;
  }

  /** systemd's object-path escaping: every byte outside [A-Za-z0-9] becomes _xx. */
  static String unitPath(String name) {
    StringBuilder escaped = new StringBuilder("/org/freedesktop/systemd1/unit/");
    for (char c : name.toCharArray()) {
      if (Character.isLetterOrDigit(c) && c < 128) {
        escaped.append(c);
      } else {
        escaped.append('_').append(String.format("%02x", (int) c));
      }
    }
    return escaped.toString();
  }

  private final class FakeManager implements SystemdManager {
    @Override
    public DBusPath StartUnit(String name, String mode) {
      calls.add("StartUnit " + name + " " + mode);
      return enqueue(knownUnit(name, "Unit %s not found."), "active", "running", 4242);
    }

    @Override
    public DBusPath StopUnit(String name, String mode) {
      calls.add("StopUnit " + name + " " + mode);
      return enqueue(knownUnit(name, "Unit %s not loaded."), "inactive", "dead", 0);
    }

    @Override
    public DBusPath RestartUnit(String name, String mode) {
      calls.add("RestartUnit " + name + " " + mode);
      return enqueue(knownUnit(name, "Unit %s not found."), "active", "running", 4343);
    }

    private DBusPath enqueue(
        FakeUnit unit, String activeWhenDone, String subWhenDone, long pidWhenDone) {
      long id = jobIds.incrementAndGet();
      String jobPath = "/org/freedesktop/systemd1/job/" + id;
      String result = nextJobResult;
      Runnable finish = () -> {
        if (noiseBeforeEachJob) {
          long foreign = jobIds.incrementAndGet();
          sendJobRemoved(foreign, "/org/freedesktop/systemd1/job/" + foreign, unit.name, "failed");
        }
        if (result.equals("done")) {
          unit.mainPid = pidWhenDone;
          changeState(unit, activeWhenDone, subWhenDone);
        }
        sendJobRemoved(id, jobPath, unit.name, result);
      };
      switch (nextEmission) {
        case BEFORE_REPLY -> {
          finish.run();
          pause(150);
        }
        case AFTER_REPLY -> emitter.schedule(finish, 50, TimeUnit.MILLISECONDS);
        case NEVER -> {}
      }
      return new DBusPath(jobPath);
    }

    @Override
    public DBusPath GetUnit(String name) {
      calls.add("GetUnit " + name);
      return new DBusPath(loadedUnit(name).path);
    }

    @Override
    public DBusPath LoadUnit(String name) {
      calls.add("LoadUnit " + name);
      FakeUnit unit = units.computeIfAbsent(name, missing -> {
        FakeUnit stub = new FakeUnit(missing, "not-found", "");
        try {
          server.exportObject(stub.path, stub);
        } catch (DBusException e) {
          throw new IllegalStateException(e);
        }
        return stub;
      });
      unit.loaded = true;
      return new DBusPath(unit.path);
    }

    @Override
    public void Reload() {
      calls.add("Reload");
    }

    @Override
    public void Subscribe() {
      calls.add("Subscribe");
    }

    @Override
    public void ResetFailedUnit(String name) {
      calls.add("ResetFailedUnit " + name);
      loadedUnit(name).result = "success";
    }

    @Override
    public void KillUnit(String name, String whom, int signal) {
      calls.add("KillUnit " + name + " " + whom + " " + signal);
      FakeUnit unit = loadedUnit(name);
      if (whom.equals("main") && unit.mainPid == 0) {
        throw new DBusExecutionException("No main process to kill");
      }
    }

    /** Unit names whose install links exist, as systemd's unit file state "enabled". */
    private final Set<String> enabled = ConcurrentHashMap.newKeySet();

    @Override
    public EnableUnitFilesResult<Boolean, List<UnitFileChange>> EnableUnitFiles(
        List<String> files, boolean runtime, boolean force) {
      calls.add("EnableUnitFiles " + files + " " + runtime + " " + force);
      List<UnitFileChange> changes = new ArrayList<>();
      for (String file : files) {
        String name = file.substring(file.lastIndexOf('/') + 1);
        knownUnit(name, "Unit file %s does not exist.");
        if (!enabled.add(name)) {
          continue;
        }
        changes.add(new UnitFileChange(
            "symlink",
            "/etc/systemd/system/multi-user.target.wants/" + name,
            "/etc/systemd/system/" + name));
      }
      return new EnableUnitFilesResult<>(true, changes);
    }

    @Override
    public List<UnitFileChange> DisableUnitFiles(List<String> files, boolean runtime) {
      calls.add("DisableUnitFiles " + files + " " + runtime);
      List<UnitFileChange> changes = new ArrayList<>();
      for (String file : files) {
        String name = file.substring(file.lastIndexOf('/') + 1);
        if (!enabled.remove(name)) {
          continue;
        }
        changes.add(new UnitFileChange(
            "unlink", "/etc/systemd/system/multi-user.target.wants/" + name, ""));
      }
      return changes;
    }

    @Override
    public String getObjectPath() {
      return SystemdManager.OBJECT_PATH;
    }

    private void pause(long millis) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A unit object: the Unit and Service properties the adapter reads. */
  static final class FakeUnit implements Properties {
    final String name;
    final String path;
    final String load;
    final String fragmentPath;
    volatile String active = "inactive";
    volatile String sub = "dead";
    volatile long mainPid;
    volatile String result = "success";
    volatile boolean loaded = true;
    /** {@code ActiveEnterTimestamp}: microseconds since the epoch, 0 for never. */
    volatile long activeEnterMicros;

    FakeUnit(String name, String load, String fragmentPath) {
      this.name = name;
      this.path = unitPath(name);
      this.load = load;
      this.fragmentPath = fragmentPath;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <A> A Get(String interfaceName, String propertyName) {
      Object value = switch (interfaceName + "." + propertyName) {
        case UnitStateReader.UNIT_INTERFACE + ".LoadState" -> load;
        case UnitStateReader.UNIT_INTERFACE + ".ActiveState" -> active;
        case UnitStateReader.UNIT_INTERFACE + ".SubState" -> sub;
        case UnitStateReader.UNIT_INTERFACE + ".FragmentPath" -> fragmentPath;
        case UnitStateReader.UNIT_INTERFACE + ".ActiveEnterTimestamp" ->
          new UInt64(activeEnterMicros);
        case UnitStateReader.SERVICE_INTERFACE + ".MainPID" -> new UInt32(mainPid);
        case UnitStateReader.SERVICE_INTERFACE + ".Result" -> result;
        default ->
          throw new UnknownProperty("no property " + propertyName + " on " + interfaceName);
      };
      return (A) value;
    }

    @Override
    public <A> void Set(String interfaceName, String propertyName, A value) {
      throw new UnknownProperty("read-only: " + propertyName);
    }

    @Override
    public Map<String, Variant<?>> GetAll(String interfaceName) {
      return Map.of();
    }

    @Override
    public String getObjectPath() {
      return path;
    }
  }
}
