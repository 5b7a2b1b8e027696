package dev.noneops.core.node.internal.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A systemd unit file or drop-in as structured sections of settings. Values are typed, never
 * pre-formatted text: {@link UnitFileWriter} escapes each according to its kind.
 */
public record UnitFile(List<Section> sections) {
  public UnitFile {
    sections = List.copyOf(sections);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** One {@code [Name]} section and its settings, in order. */
  public record Section(String name, List<Setting> settings) {
    public Section {
      SystemdSyntax.section(name);
      settings = List.copyOf(settings);
    }
  }

  /** One {@code Key=value} line. */
  public record Setting(String key, Value value) {
    public Setting {
      SystemdSyntax.key(key);
      Objects.requireNonNull(value, "value");
    }
  }

  /** The kinds of value a setting can hold. */
  public sealed interface Value {}

  /** A literal value ({@code Description=}, {@code After=}). */
  public record Plain(String text) implements Value {
    public Plain {
      Objects.requireNonNull(text, "text");
    }
  }

  /** An {@code Exec*=} command line. */
  public record Exec(Command command) implements Value {
    public Exec {
      Objects.requireNonNull(command, "command");
    }
  }

  /** An {@code Environment=} assignment of a literal value. */
  public record Env(String name, String value) implements Value {
    public Env {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * An {@code Environment=} assignment of a list of arguments that a command line expands with
   * {@code $NAME} (split at whitespace); so no argument may contain whitespace, quotes or
   * backslashes.
   */
  public record EnvArgs(String name, List<String> args) implements Value {
    public EnvArgs {
      Objects.requireNonNull(name, "name");
      args = List.copyOf(args);
    }
  }

  /**
   * A command line: optional prefix characters ({@code -} to ignore failure), an absolute
   * program, and arguments.
   */
  public record Command(String prefix, String program, List<Arg> args) {
    public Command {
      Objects.requireNonNull(prefix, "prefix");
      if (!prefix.chars().allMatch(c -> "-@:+!".indexOf(c) >= 0)) {
        throw new IllegalArgumentException("not a command prefix: '" + prefix + "'");
      }
      Objects.requireNonNull(program, "program");
      args = List.copyOf(args);
    }

    /** A command whose arguments are all literal. */
    public static Command of(String program, String... args) {
      List<Arg> list = new ArrayList<>();
      for (String a : args) {
        list.add(new Literal(a));
      }
      return new Command("", program, list);
    }

    /** This command with failure ignored ({@code -} prefix). */
    public Command ignoringFailure() {
      return new Command(prefix.contains("-") ? prefix : prefix + "-", program, args);
    }
  }

  /** One argument of a command line. */
  public sealed interface Arg {}

  /** An argument passed verbatim. */
  public record Literal(String text) implements Arg {
    public Literal {
      Objects.requireNonNull(text, "text");
    }
  }

  /** A {@code $NAME} expansion, split at whitespace into zero or more arguments. */
  public record Variable(String name) implements Arg {
    public Variable {
      Objects.requireNonNull(name, "name");
    }
  }

  /** Builds a unit section by section. */
  public static final class Builder {
    private final List<Section> sections = new ArrayList<>();
    private String current;
    private List<Setting> settings;

    public Builder section(String name) {
      flush();
      current = name;
      settings = new ArrayList<>();
      return this;
    }

    public Builder set(String key, String value) {
      return add(key, new Plain(value));
    }

    public Builder exec(String key, Command command) {
      return add(key, new Exec(command));
    }

    public Builder env(String name, String value) {
      return add("Environment", new Env(name, value));
    }

    public Builder envArgs(String name, List<String> args) {
      return add("Environment", new EnvArgs(name, args));
    }

    public Builder add(String key, Value value) {
      if (current == null) {
        throw new IllegalStateException("a setting needs a section first");
      }
      settings.add(new Setting(key, value));
      return this;
    }

    public UnitFile build() {
      flush();
      return new UnitFile(sections);
    }

    private void flush() {
      if (current != null) {
        sections.add(new Section(current, settings));
        current = null;
        settings = null;
      }
    }
  }
}
