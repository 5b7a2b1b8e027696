package dev.noneops.benchmarks.e2e;

import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Row 14: where {@code noneops status}'s start-up goes and what the options the Performance issue
 * names buy, on a sandboxed systemd (no node installed: three unit reads over D-Bus). Every
 * variant runs the same jar with the launcher's JVM flags inside the sandbox under GNU {@code
 * time -v}, interleaved: today's launcher (JDK 17, the static CDS archive trained on the build
 * host, where no systemd answers, so its D-Bus path is not in it); JDK 17 without class-data
 * sharing; JDK 17 with an archive trained inside the sandbox (the D-Bus path included); JDK 25
 * with its default CDS; JDK 25 with an AOT cache (JEP 483/514) trained inside the sandbox. One
 * run of today's variant and of the sandbox-trained one logs every class loaded ({@code
 * -Xlog:class+load} with uptime): how many, from the archive or from the jar, by library, and when
 * the first class of each library loaded.
 *
 * <p>Usage: {@code StatusStartupBenchmark <section.md> <repository root> [runs]}.
 */
public final class StatusStartupBenchmark {
  static final Path JDK25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
  static final List<String> FLAGS = List.of(
      "-Xms8m",
      "-Xmx256m",
      "-XX:TieredStopAtLevel=1",
      "-XX:+UseSerialGC",
      "-XX:-UsePerfData",
      "-Xlog:disable",
      "-Xlog:all=warning:stderr",
      "--add-opens",
      "java.base/java.io=ALL-UNNAMED",
      "--add-opens",
      "java.base/sun.nio.ch=ALL-UNNAMED",
      "-Djnr.ffi.asm.enabled=false");
  private static final Pattern WALL = Pattern.compile(
      "Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\): (?:(\\d+):)?(\\d+):([\\d.]+)");
  private static final Pattern RSS =
      Pattern.compile("Maximum resident set size \\(kbytes\\): (\\d+)");
  private static final Pattern USER = Pattern.compile("User time \\(seconds\\): ([\\d.]+)");
  private static final Pattern SYSTEM = Pattern.compile("System time \\(seconds\\): ([\\d.]+)");
  private static final Pattern LOADED =
      Pattern.compile("\\[([\\d.]+)s\\](?:\\[info\\]\\[class,load\\])? (\\S+) source: (.*)");

  private StatusStartupBenchmark() {}

  /** One way of running {@code status}, and its samples. */
  private record Variant(
      String label, List<String> command, Samples wall, Samples cpu, Samples rss) {
    Variant(String label, List<String> command) {
      this(label, command, new Samples("ms"), new Samples("ms"), new Samples("MB"));
    }
  }

  public static void main(String[] args) throws Exception {
    Path sectionFile = Path.of(args[0]);
    Path repo = Path.of(args[1]).toAbsolutePath();
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    String launcher = repo.resolve("bin/noneops").toString();
    Path jar = repo.resolve("adapter-cli/target/noneops.jar");
    Path hostArchive = repo.resolve("adapter-cli/target/noneops.jsa");
    String loadBefore = LoadAverage.oneMinute();
    List<Variant> variants = new ArrayList<>();
    Map<String, String> classes = new LinkedHashMap<>();
    Duration boot;
    String printed;
    boolean jdk25 = Files.isExecutable(JDK25);
    try (SystemdSandbox sandbox = SystemdSandbox.boot("bench-status-startup")) {
      boot = sandbox.bootTime();
      Shell.check(List.of(launcher, "version"), Duration.ofMinutes(10));
      // what the JVMs inside write stays inside: a directory of the sandbox's, seen from here
      // through /proc/<pid>/root
      Path work = Path.of("/var/tmp/noneops-status-startup");
      Path seen =
          Path.of("/proc/" + sandbox.pid() + "/root").resolve(work.toString().substring(1));
      Files.createDirectories(seen);
      Path sandboxArchive = work.resolve("sandbox-trained.jsa");
      Path aotCache = work.resolve("sandbox-trained.aot");
      // trained inside the sandbox: cds-training's classes plus those of a status over D-Bus
      Path list = work.resolve("sandbox.classlist");
      Path training = work.resolve("training.classlist");
      Shell.check(
          inside(sandbox, java17(jar, "-XX:DumpLoadedClassList=" + training, "cds-training")),
          Duration.ofMinutes(2));
      // status exits 7 on a host without a node: the exit code is not what is trained
      Shell.run(
          inside(sandbox, java17(jar, "-XX:DumpLoadedClassList=" + list, "status")),
          Duration.ofMinutes(2));
      Set<String> both = new LinkedHashSet<>(Files.readAllLines(seenAs(seen, work, training)));
      both.addAll(Files.readAllLines(seenAs(seen, work, list)));
      Files.write(seenAs(seen, work, work.resolve("all.classlist")), both);
      List<String> dump = new ArrayList<>(List.of(java17Path()));
      dump.addAll(FLAGS);
      dump.addAll(List.of(
          "-Xshare:dump",
          "-XX:SharedClassListFile=" + work.resolve("all.classlist"),
          "-XX:SharedArchiveFile=" + sandboxArchive,
          "-cp",
          jar.toString()));
      Shell.check(inside(sandbox, dump), Duration.ofMinutes(5));
      variants.add(new Variant(
          "today: `bin/noneops status` (JDK 17, the launcher's CDS archive trained on the build host)",
          inside(
              sandbox,
              List.of("/usr/bin/time", "-v", "env", "NONEOPS_NO_REBUILD=1", launcher, "status"))));
      variants.add(new Variant(
          "JDK 17, no class-data sharing (`-Xshare:off`)",
          inside(sandbox, timed(java17(jar, "-Xshare:off", "status")))));
      variants.add(new Variant(
          "JDK 17, the launcher's archive (java directly, no bash launcher)",
          inside(sandbox, timed(java17(jar, "-XX:SharedArchiveFile=" + hostArchive, "status")))));
      variants.add(new Variant(
          "JDK 17, an archive trained inside the sandbox (status over D-Bus included)",
          inside(
              sandbox, timed(java17(jar, "-XX:SharedArchiveFile=" + sandboxArchive, "status")))));
      if (jdk25) {
        // status exits 7 on a host without a node: the exit code is not what is trained
        Shell.run(
            inside(
                sandbox, java(JDK25.toString(), jar, "-XX:AOTCacheOutput=" + aotCache, "status")),
            Duration.ofMinutes(5));
        if (!Files.isRegularFile(seenAs(seen, work, aotCache))) {
          throw new IllegalStateException("JDK 25 wrote no AOT cache at " + aotCache);
        }
        variants.add(new Variant(
            "JDK 25, its default CDS archive",
            inside(sandbox, timed(java(JDK25.toString(), jar, "-Xshare:auto", "status")))));
        variants.add(new Variant(
            "JDK 25, an AOT cache trained inside the sandbox (`-XX:AOTCache`)",
            inside(
                sandbox,
                timed(java(JDK25.toString(), jar, "-XX:AOTCache=" + aotCache, "status")))));
      }
      printed = Shell.run(
              inside(sandbox, java17(jar, "-XX:SharedArchiveFile=" + hostArchive, "status")),
              Duration.ofMinutes(2))
          .out()
          .strip()
          .replace('\n', ' ')
          .replace("|", "\\|");
      classes.put(
          "the launcher's archive (trained on the build host)",
          classLoads(sandbox, work, seen, jar, "-XX:SharedArchiveFile=" + hostArchive));
      classes.put(
          "an archive trained inside the sandbox",
          classLoads(sandbox, work, seen, jar, "-XX:SharedArchiveFile=" + sandboxArchive));
      classes.put("no class-data sharing", classLoads(sandbox, work, seen, jar, "-Xshare:off"));
      for (int i = 0; i < runs; i++) {
        for (Variant v : variants) {
          measure(v);
        }
      }
    }
    Section section = new Section()
        .heading("14. `noneops status`: where the start-up goes, and the options")
        .paragraph(
            "A systemd booted in [the sandbox](guides/tests.md#the-sandboxed-systemd) (booted in "
                + boot.toMillis()
                + " ms), no node installed: `status` reads three units over one D-Bus connection. Every variant runs the same "
                + "CLI jar with the launcher's JVM flags (`" + String.join(" ", FLAGS)
                + "`) inside the sandbox via `nsenter` "
                + "under GNU `time -v`, interleaved, " + runs
                + " runs each. The archives and the AOT cache trained inside the "
                + "sandbox ran `cds-training` and a `status` that reached systemd; the launcher's archive is trained on the build "
                + "host, where no systemd answers. `status` printed: `" + printed + "`.")
        .line("| variant | wall time | CPU (user+sys) | peak RSS |")
        .line("|---|---|---|---|");
    for (Variant v : variants) {
      section.line("| " + v.label() + " | " + v.wall().summary() + " | "
          + v.cpu().summary() + " | " + v.rss().summary() + " |");
    }
    section
        .line("")
        .paragraph("Classes a `status` loads (one run each, `-Xlog:class+load` with uptime):");
    section
        .line(
            "| archive | classes loaded | from the archive | from the JDK's modules | from the jar | generated at run time | first class of picocli, dbus-java, "
                + "jnr, Jackson, noneops (uptime ms) | last class |")
        .line("|---|---|---|---|---|---|---|---|");
    classes.forEach((k, v) -> section.line("| " + k + " | " + v + " |"));
    section
        .line("")
        .paragraph("One-minute load average on " + Runtime.getRuntime().availableProcessors()
            + " CPUs as the row started and ended: " + loadBefore + " and "
            + LoadAverage.oneMinute()
            + LoadAverage.verdict(loadBefore) + ".")
        .writeTo(sectionFile);
  }

  /** One status run with every class load logged, summarised as a table row's cells. */
  private static String classLoads(
      SystemdSandbox sandbox, Path work, Path seen, Path jar, String share) throws Exception {
    Path log = work.resolve("class-load-" + Integer.toHexString(share.hashCode()) + ".log");
    Files.deleteIfExists(seenAs(seen, work, log));
    Shell.run(
        inside(
            sandbox, java17(jar, share, "-Xlog:class+load=info:file=" + log + ":uptime", "status")),
        Duration.ofMinutes(2));
    int total = 0;
    int shared = 0;
    int jdk = 0;
    int fromJar = 0;
    Map<String, Double> first = new LinkedHashMap<>();
    for (String group :
        List.of("picocli", "org.freedesktop.dbus", "jnr", "com.fasterxml.jackson", "dev.noneops")) {
      first.put(group, Double.NaN);
    }
    double last = 0;
    String lastClass = "";
    for (String line : Files.readAllLines(seenAs(seen, work, log))) {
      Matcher m = LOADED.matcher(line);
      if (!m.find()) {
        continue;
      }
      total++;
      double at = Double.parseDouble(m.group(1)) * 1000;
      if (m.group(3).contains("shared")) {
        shared++;
      } else if (m.group(3).startsWith("jrt:")) {
        jdk++;
      } else if (m.group(3).contains(".jar")) {
        fromJar++;
      }
      for (Map.Entry<String, Double> e : first.entrySet()) {
        if (m.group(2).startsWith(e.getKey()) && e.getValue().isNaN()) {
          e.setValue(at);
        }
      }
      if (at >= last) {
        last = at;
        lastClass = m.group(2);
      }
    }
    StringBuilder firsts = new StringBuilder();
    for (Map.Entry<String, Double> e : first.entrySet()) {
      firsts
          .append(firsts.length() == 0 ? "" : ", ")
          .append(e.getValue().isNaN() ? "—" : String.format(Locale.ROOT, "%.0f", e.getValue()));
    }
    return total + " | " + shared + " | " + jdk + " | " + fromJar + " | "
        + (total - shared - jdk - fromJar) + " | " + firsts + " | "
        + String.format(Locale.ROOT, "%.0f ms (`%s`)", last, lastClass);
  }

  /** {@code path} below the sandbox's {@code work} directory, as this process sees it. */
  private static Path seenAs(Path seen, Path work, Path path) {
    return seen.resolve(work.relativize(path).toString());
  }

  private static String java17Path() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static List<String> java17(Path jar, String... options) {
    return java(java17Path(), jar, options);
  }

  /** {@code java} with the launcher's flags, {@code options} (the last is the command), the jar. */
  private static List<String> java(String java, Path jar, String... options) {
    List<String> command = new ArrayList<>(List.of(java));
    command.addAll(FLAGS);
    for (int i = 0; i < options.length - 1; i++) {
      command.add(options[i]);
    }
    command.addAll(List.of("-jar", jar.toString(), options[options.length - 1]));
    return command;
  }

  private static List<String> timed(List<String> command) {
    List<String> all = new ArrayList<>(List.of("/usr/bin/time", "-v"));
    all.addAll(command);
    return all;
  }

  private static List<String> inside(SystemdSandbox sandbox, List<String> command) {
    return sandbox.inside(command);
  }

  private static void measure(Variant v) throws Exception {
    Shell.Result r = Shell.run(v.command(), Duration.ofMinutes(2));
    Matcher w = WALL.matcher(r.err());
    Matcher m = RSS.matcher(r.err());
    Matcher u = USER.matcher(r.err());
    Matcher s = SYSTEM.matcher(r.err());
    if (!w.find() || !m.find() || !u.find() || !s.find()) {
      throw new IllegalStateException(String.join(" ", v.command())
          + " printed no /usr/bin/time -v report: " + r.err().strip());
    }
    double hours = w.group(1) == null ? 0 : Double.parseDouble(w.group(1));
    v.wall()
        .add(((hours * 60 + Double.parseDouble(w.group(2))) * 60 + Double.parseDouble(w.group(3)))
            * 1000);
    v.cpu().add((Double.parseDouble(u.group(1)) + Double.parseDouble(s.group(1))) * 1000);
    v.rss().add(Long.parseLong(m.group(1)) / 1024.0);
  }
}
