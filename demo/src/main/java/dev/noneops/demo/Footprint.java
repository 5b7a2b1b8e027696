package dev.noneops.demo;

import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What a node and its pods occupy in a sandbox, counted inside it: mounts (the mount points of its
 * mount table), network links, network namespaces (those its processes are in and the named ones
 * below {@code /var/run/netns}) and cgroups (the directories of its cgroup tree). Read before the
 * bootstrap, with pods running and after the teardown, so the demo can show what the pods added
 * and that the teardown left none of it.
 */
record Footprint(List<String> mounts, List<String> links, Set<String> netns, List<String> cgroups) {

  static Footprint of(SystemdSandbox sandbox) throws IOException {
    List<String> mounts = new ArrayList<>();
    for (String line : Files.readAllLines(
        Path.of("/proc", Long.toString(sandbox.pid()), "mountinfo"), StandardCharsets.UTF_8)) {
      String[] fields = line.split(" ");
      if (fields.length > 4) {
        mounts.add(fields[4]);
      }
    }
    List<String> links = sandbox
        .exec("ip", "-o", "link", "show")
        .orThrow()
        .stdout()
        .lines()
        .map(l -> l.split(": ")[1].split("@")[0])
        .toList();
    Set<String> netns = new TreeSet<>(sandbox
        .exec(
            "sh",
            "-c",
            "for n in /proc/[0-9]*/ns/net; do readlink $n; done 2>/dev/null;"
                + " for n in /var/run/netns/*; do [ -e \"$n\" ] && stat -L -c 'net:[%i]' $n; done;"
                + " true")
        .orThrow()
        .stdout()
        .lines()
        .filter(l -> l.startsWith("net:["))
        .toList());
    Path cgroupRoot = sandbox.path("/sys/fs/cgroup");
    List<String> cgroups;
    try (Stream<Path> tree = Files.walk(cgroupRoot)) {
      cgroups = tree.filter(Files::isDirectory)
          .map(p -> "/" + cgroupRoot.relativize(p))
          .sorted()
          .toList();
    }
    return new Footprint(
        mounts.stream().sorted().toList(), links.stream().sorted().toList(), netns, cgroups);
  }

  /** {@code 31 mounts, 1 link, 1 network namespace, 42 cgroups}. */
  String counts() {
    return mounts.size() + " mounts, " + links.size() + (links.size() == 1 ? " link, " : " links, ")
        + netns.size() + (netns.size() == 1 ? " network namespace, " : " network namespaces, ")
        + cgroups.size() + " cgroups";
  }

  /** What this footprint has beyond {@code before}, in a few words, e.g. {@code +12 mounts (...)}. */
  String beyond(Footprint before) {
    List<String> parts = new ArrayList<>();
    added("mounts", before.mounts, mounts, parts);
    added("links", before.links, links, parts);
    parts.add("+" + Math.max(0, netns.size() - before.netns.size()) + " network namespaces");
    added("cgroups", before.cgroups, cgroups, parts);
    return String.join(", ", parts);
  }

  /** Whether it counts what {@code before} did, item by item (a namespace by number only: a reboot renews the sandbox's own). */
  boolean sameAs(Footprint before) {
    return mounts.equals(before.mounts)
        && links.equals(before.links)
        && netns.size() == before.netns.size()
        && cgroups.equals(before.cgroups);
  }

  /** What differs from {@code before}, each way, for a failure's message. */
  String differenceFrom(Footprint before) {
    return "mounts " + diff(before.mounts, mounts) + "; links " + diff(before.links, links)
        + "; network namespaces " + before.netns.size() + " -> " + netns.size() + "; cgroups "
        + diff(before.cgroups, cgroups);
  }

  private static void added(
      String what, List<String> before, List<String> after, List<String> parts) {
    List<String> extra = new ArrayList<>(after);
    before.forEach(extra::remove);
    parts.add("+" + extra.size() + " " + what);
  }

  private static String diff(List<String> before, List<String> after) {
    List<String> gone = new ArrayList<>(before);
    after.forEach(gone::remove);
    List<String> added = new ArrayList<>(after);
    before.forEach(added::remove);
    return (gone.isEmpty() && added.isEmpty()) ? "same" : "gone " + gone + " new " + added;
  }
}
