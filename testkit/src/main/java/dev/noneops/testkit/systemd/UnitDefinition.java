package dev.noneops.testkit.systemd;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What systemd loaded for one unit: its file plus drop-ins, reduced to the settings the simulation
 * honours (dependencies and ordering, conditions, the command, its environment, kill mode, install
 * targets).
 *
 * @param name the unit name
 * @param fragmentPath the unit file
 * @param dropInPaths the drop-ins merged, in order
 * @param masked whether the unit file is a link to {@code /dev/null}
 */
record UnitDefinition(
    String name,
    String fragmentPath,
    List<String> dropInPaths,
    boolean masked,
    String type,
    List<String> after,
    List<String> before,
    List<String> wants,
    List<String> requires,
    List<UnitDefinition.PathCondition> conditionPathExists,
    List<List<String>> execStart,
    Map<String, String> environment,
    List<String> environmentFiles,
    String killMode,
    boolean remainAfterExit,
    List<String> wantedBy,
    List<String> requiredBy) {

  /** A definition with nothing in it (a masked unit, or a target with no settings). */
  static UnitDefinition empty(String name, String fragmentPath, boolean masked) {
    return from(name, fragmentPath, List.of(), List.of(), masked);
  }

  static UnitDefinition from(
      String name,
      String fragmentPath,
      List<String> dropInPaths,
      List<UnitFileParser.Setting> settings,
      boolean masked) {
    String type = name.endsWith(".service") ? "simple" : name.substring(name.lastIndexOf('.') + 1);
    Set<String> after = new LinkedHashSet<>();
    Set<String> before = new LinkedHashSet<>();
    Set<String> wants = new LinkedHashSet<>();
    Set<String> requires = new LinkedHashSet<>();
    List<PathCondition> conditions = new ArrayList<>();
    List<List<String>> exec = new ArrayList<>();
    Map<String, String> env = new LinkedHashMap<>();
    List<String> envFiles = new ArrayList<>();
    String killMode = "control-group";
    boolean remain = false;
    Set<String> wantedBy = new LinkedHashSet<>();
    Set<String> requiredBy = new LinkedHashSet<>();
    for (UnitFileParser.Setting s : settings) {
      String v = s.value();
      switch (s.section() + "." + s.key()) {
        case "Unit.After" -> addList(after, v);
        case "Unit.Before" -> addList(before, v);
        case "Unit.Wants" -> addList(wants, v);
        case "Unit.Requires", "Unit.BindsTo", "Unit.Requisite" -> addList(requires, v);
        case "Unit.ConditionPathExists",
            "Unit.ConditionPathExistsGlob",
            "Unit.ConditionDirectoryNotEmpty" -> {
          if (v.isEmpty()) {
            conditions.clear();
          } else {
            conditions.add(PathCondition.parse(v, PathCondition.Kind.of(s.key())));
          }
        }
        case "Service.Type" -> type = v;
        case "Service.ExecStart" -> {
          if (v.isEmpty()) {
            exec.clear();
          } else {
            exec.add(UnitFileParser.words(v));
          }
        }
        case "Service.Environment" -> {
          for (String assignment : UnitFileParser.words(v)) {
            int eq = assignment.indexOf('=');
            if (eq > 0) {
              env.put(assignment.substring(0, eq), assignment.substring(eq + 1));
            }
          }
        }
        case "Service.EnvironmentFile" -> {
          if (v.isEmpty()) {
            envFiles.clear();
          } else {
            envFiles.add(v);
          }
        }
        case "Service.KillMode" -> killMode = v;
        case "Service.RemainAfterExit" ->
          remain = v.equals("yes") || v.equals("true") || v.equals("1") || v.equals("on");
        case "Install.WantedBy" -> addList(wantedBy, v);
        case "Install.RequiredBy" -> addList(requiredBy, v);
        default -> {
          // every other setting is accepted and has no effect in the simulation
        }
      }
    }
    return new UnitDefinition(
        name,
        fragmentPath,
        List.copyOf(dropInPaths),
        masked,
        type,
        List.copyOf(after),
        List.copyOf(before),
        List.copyOf(wants),
        List.copyOf(requires),
        List.copyOf(conditions),
        List.copyOf(exec),
        Map.copyOf(env),
        List.copyOf(envFiles),
        killMode,
        remain,
        List.copyOf(wantedBy),
        List.copyOf(requiredBy));
  }

  /**
   * A {@code ConditionPathExists=}, {@code ConditionPathExistsGlob=} or {@code
   * ConditionDirectoryNotEmpty=}: {@code |} makes it triggering (at least one triggering condition
   * must hold), {@code !} negates it; a glob matches in its last path element only.
   */
  record PathCondition(String path, Kind kind, boolean triggering, boolean negated) {
    enum Kind {
      EXISTS,
      EXISTS_GLOB,
      DIRECTORY_NOT_EMPTY;

      static Kind of(String key) {
        return switch (key) {
          case "ConditionPathExistsGlob" -> EXISTS_GLOB;
          case "ConditionDirectoryNotEmpty" -> DIRECTORY_NOT_EMPTY;
          default -> EXISTS;
        };
      }
    }

    static PathCondition parse(String value, Kind kind) {
      String spec = value;
      boolean triggering = spec.startsWith("|");
      if (triggering) {
        spec = spec.substring(1);
      }
      boolean negated = spec.startsWith("!");
      if (negated) {
        spec = spec.substring(1);
      }
      return new PathCondition(spec.replace("%%", "%"), kind, triggering, negated);
    }
  }

  private static void addList(Set<String> into, String value) {
    if (value.isEmpty()) {
      into.clear();
      return;
    }
    into.addAll(UnitFileParser.words(value));
  }

  boolean isService() {
    return name.endsWith(".service");
  }

  /** The command systemd runs as the main process (the last ExecStart=, or the first for oneshot). */
  Optional<List<String>> mainCommand() {
    if (execStart.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        type.equals("oneshot") ? execStart.get(0) : execStart.get(execStart.size() - 1));
  }

  /** Dependencies started before this unit: Requires= and Wants=, in that order. */
  List<String> pulledIn() {
    List<String> out = new ArrayList<>(requires);
    for (String w : wants) {
      if (!out.contains(w)) {
        out.add(w);
      }
    }
    return out;
  }
}
