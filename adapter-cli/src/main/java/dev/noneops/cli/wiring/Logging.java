package dev.noneops.cli.wiring;

import java.util.List;

/**
 * Configures slf4j-simple before the first logger exists: everything to stderr (stdout carries
 * results only), warnings by default, info with {@code -v}, debug with {@code -vv}. The libraries'
 * own chatter (dbus-java) stays at warnings unless {@code -vv}.
 */
final class Logging {
  private Logging() {}

  static void configure(List<String> args) {
    int verbosity = verbosity(args);
    String level = verbosity >= 2 ? "debug" : verbosity == 1 ? "info" : "warn";
    setIfAbsent("org.slf4j.simpleLogger.logFile", "System.err");
    setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", level);
    setIfAbsent("org.slf4j.simpleLogger.log.org.freedesktop", verbosity >= 2 ? "debug" : "warn");
    setIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
    setIfAbsent("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
    setIfAbsent("org.slf4j.simpleLogger.showThreadName", "false");
    setIfAbsent("org.slf4j.simpleLogger.showShortLogName", "true");
  }

  /** {@code -v} counts 1, {@code -vv} 2, {@code --verbose} 1 each; stops at {@code --}. */
  static int verbosity(List<String> args) {
    int v = 0;
    for (String a : args) {
      if (a.equals("--")) {
        break;
      }
      if (a.equals("--verbose")) {
        v++;
      } else if (a.matches("-v+")) {
        v += a.length() - 1;
      }
    }
    return v;
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
