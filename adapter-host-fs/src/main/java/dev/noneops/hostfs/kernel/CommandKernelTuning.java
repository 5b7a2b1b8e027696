package dev.noneops.hostfs.kernel;

import dev.noneops.hostfs.commands.CommandErrors;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.ports.kernel.KernelTuning;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@link KernelTuning} over kmod's {@code modprobe} and procps' {@code sysctl}, run through a
 * {@link CommandRunner}: {@code modprobe <name>}, {@code sysctl --system} and {@code sysctl -n};
 * whether a module is available: {@code /sys/module/<name>} (loaded or built in), else
 * {@code modprobe --dry-run --quiet <name>}.
 */
public final class CommandKernelTuning implements KernelTuning {
  private static final Pattern MODULE = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_-]+([./][A-Za-z0-9_@:+-]+)*");
  private static final Pattern NO_KEY = Pattern.compile("cannot stat|No such file or directory");

  private final CommandRunner commands;
  private final Duration timeout;
  private final Path sysModule;

  public CommandKernelTuning(CommandRunner commands, Duration timeout) {
    this(commands, timeout, Path.of("/sys/module"));
  }

  /** @param sysModule the kernel's module directory, normally {@code /sys/module} */
  public CommandKernelTuning(CommandRunner commands, Duration timeout, Path sysModule) {
    this.commands = Objects.requireNonNull(commands, "commands");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.sysModule = Objects.requireNonNull(sysModule, "sysModule");
  }

  @Override
  public boolean moduleAvailable(String name) throws IOException {
    if (name == null || !MODULE.matcher(name).matches()) {
      throw new IllegalArgumentException("not a kernel module name: '" + name + "'");
    }
    if (Files.isDirectory(sysModule.resolve(name))
        || Files.isDirectory(sysModule.resolve(name.replace('-', '_')))) {
      return true;
    }
    try {
      return commands
          .run(Command.of(timeout, "modprobe", "--dry-run", "--quiet", name))
          .succeeded();
    } catch (HostIOException e) {
      if (e.errno() == Errno.ENOENT) {
        return false;
      }
      throw e;
    }
  }

  @Override
  public void loadModule(String name) throws IOException {
    if (name == null || !MODULE.matcher(name).matches()) {
      throw new IllegalArgumentException("not a kernel module name: '" + name + "'");
    }
    require("load kernel module", name, Command.of(timeout, "modprobe", name));
  }

  @Override
  public void applySysctlPresets() throws IOException {
    require("apply sysctl presets", "sysctl.d", Command.of(timeout, "sysctl", "--system"));
  }

  @Override
  public Optional<String> sysctl(String key) throws IOException {
    if (key == null || !KEY.matcher(key).matches()) {
      throw new IllegalArgumentException("not a sysctl key: '" + key + "'");
    }
    Command read = Command.of(timeout, "sysctl", "-n", key);
    CommandResult result = commands.run(read);
    if (result.succeeded()) {
      return Optional.of(result.stdout().strip());
    }
    if (!result.timedOut() && NO_KEY.matcher(result.stderr()).find()) {
      return Optional.empty();
    }
    throw CommandErrors.of("read sysctl", key, read, result);
  }

  private void require(String operation, String target, Command command) throws IOException {
    CommandResult result = commands.run(command);
    if (!result.succeeded()) {
      throw CommandErrors.of(operation, target, command, result);
    }
  }
}
