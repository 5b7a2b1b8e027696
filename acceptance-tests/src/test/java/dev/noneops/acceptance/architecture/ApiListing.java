package dev.noneops.acceptance.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The public API of one module's classes as sorted text: each type reachable from outside its
 * package (public or protected, and so are the types around it) with its public and protected
 * fields, constructors and methods, written with their generic signatures, leaving out the
 * methods every record, enum or object has. Types of an
 * {@code internal} package are left out: a module does not export them.
 */
final class ApiListing {
  private ApiListing() {}

  /** The listing of the classes in {@code location}, a classes directory or a jar. */
  static List<String> of(Path location, ClassLoader loader) {
    return of(
        classNames(location).stream().<Class<?>>map(name -> load(name, loader)).toList());
  }

  /** The listing of {@code types}, in the order given. */
  static List<String> of(List<Class<?>> types) {
    List<String> lines = new ArrayList<>();
    for (Class<?> type : types) {
      if (!isApi(type)) {
        continue;
      }
      lines.add(header(type) + " {");
      Stream.of(
              Arrays.stream(type.getDeclaredFields())
                  .filter(ApiListing::isApi)
                  .map(ApiListing::field),
              Arrays.stream(type.getDeclaredConstructors())
                  .filter(ApiListing::isApi)
                  .map(c -> executable(type, c)),
              Arrays.stream(type.getDeclaredMethods())
                  .filter(m -> !m.isBridge() && isApi(m) && !isEveryTypes(type, m))
                  .map(m -> executable(type, m)))
          .flatMap(s -> s)
          .sorted()
          .forEach(member -> lines.add("  " + member));
      lines.add("}");
    }
    return lines;
  }

  private static boolean isApi(Class<?> type) {
    if (type.getPackageName().contains(".internal.")
        || type.getPackageName().endsWith(".internal")) {
      return false;
    }
    for (Class<?> t = type; t != null; t = t.getDeclaringClass()) {
      if (!visible(t.getModifiers())
          || t.isAnonymousClass()
          || t.isLocalClass()
          || t.isSynthetic()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code m} is a method every type of its kind has, whatever it declares: {@code
   * equals}, {@code hashCode} and {@code toString} (a record generates them), and an enum's {@code
   * values} and {@code valueOf}. Listing them would say nothing about this API.
   */
  private static boolean isEveryTypes(Class<?> type, Method m) {
    String name = m.getName();
    int params = m.getParameterCount();
    if ((name.equals("hashCode") || name.equals("toString")) && params == 0) {
      return true;
    }
    if (name.equals("equals") && params == 1 && m.getParameterTypes()[0] == Object.class) {
      return true;
    }
    return type.isEnum()
        && Modifier.isStatic(m.getModifiers())
        && ((name.equals("values") && params == 0)
            || (name.equals("valueOf") && params == 1 && m.getParameterTypes()[0] == String.class));
  }

  private static boolean isApi(Member member) {
    return visible(member.getModifiers()) && !member.isSynthetic();
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static String header(Class<?> type) {
    String kind = type.isAnnotation()
        ? "@interface"
        : type.isInterface()
            ? "interface"
            : type.isEnum() ? "enum" : type.isRecord() ? "record" : "class";
    int modifiers = type.getModifiers()
        & (type.isInterface()
            ? Modifier.PUBLIC | Modifier.PROTECTED | Modifier.STATIC
            : Modifier.classModifiers());
    if (type.isEnum() || type.isRecord()) {
      modifiers &= ~(Modifier.FINAL | Modifier.STATIC);
    }
    StringBuilder out = new StringBuilder(Modifier.toString(modifiers));
    if (type.isSealed()) {
      out.append(" sealed");
    }
    out.append(' ').append(kind).append(' ').append(type.getTypeName());
    if (type.getTypeParameters().length > 0) {
      out.append(Arrays.stream(type.getTypeParameters())
          .map(ApiListing::typeParameter)
          .collect(Collectors.joining(", ", "<", ">")));
    }
    if (type.getGenericSuperclass() != null
        && !type.isEnum()
        && !type.isRecord()
        && type.getSuperclass() != Object.class) {
      out.append(" extends ").append(type.getGenericSuperclass().getTypeName());
    }
    if (type.getGenericInterfaces().length > 0) {
      out.append(type.isInterface() ? " extends " : " implements ")
          .append(Arrays.stream(type.getGenericInterfaces())
              .map(Type::getTypeName)
              .collect(Collectors.joining(", ")));
    }
    return out.toString();
  }

  private static String typeParameter(TypeVariable<?> variable) {
    List<String> bounds = Arrays.stream(variable.getBounds())
        .map(Type::getTypeName)
        .filter(b -> !b.equals("java.lang.Object"))
        .toList();
    return bounds.isEmpty()
        ? variable.getName()
        : variable.getName() + " extends " + String.join(" & ", bounds);
  }

  private static String field(Field field) {
    return Modifier.toString(field.getModifiers() & Modifier.fieldModifiers()) + " "
        + field.getGenericType().getTypeName() + " " + field.getName();
  }

  /** {@link Executable#toGenericString()} without the declaring type before the member's name. */
  private static String executable(Class<?> type, Executable executable) {
    String text = executable.toGenericString();
    if (executable instanceof Method method) {
      return text.replace(
          type.getTypeName() + "." + method.getName() + "(", method.getName() + "(");
    }
    return text.replace(
        " " + ((Constructor<?>) executable).getDeclaringClass().getTypeName() + "(", " <init>(");
  }

  private static Class<?> load(String name, ClassLoader loader) {
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("cannot load " + name, e);
    }
  }

  /** The binary names of the classes in a directory or jar, sorted. */
  private static List<String> classNames(Path location) {
    try {
      if (Files.isDirectory(location)) {
        return classNamesBelow(location);
      }
      try (FileSystem jar = FileSystems.newFileSystem(location)) {
        return classNamesBelow(jar.getPath("/"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the classes of " + location, e);
    }
  }

  private static List<String> classNamesBelow(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.map(p -> root.relativize(p).toString())
          .filter(p -> p.endsWith(".class")
              && !p.endsWith("module-info.class")
              && !p.endsWith("package-info.class")
              && !p.startsWith("META-INF"))
          .map(p -> p.substring(0, p.length() - ".class".length()).replace('/', '.'))
          .sorted()
          .toList();
    }
  }
}
