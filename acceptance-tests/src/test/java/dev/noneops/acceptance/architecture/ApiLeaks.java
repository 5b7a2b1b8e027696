package dev.noneops.acceptance.architecture;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Finds the places where an API leaks: a public or protected member of a public type in an
 * exported package that names a type a caller cannot name — one that is not public, or that lives
 * in a package the module does not export.
 */
final class ApiLeaks {
  private final Predicate<String> exported;
  private final Predicate<String> ownPackages;

  /**
   * @param ownPackages the packages of the modules checked (types of other libraries and the JDK
   *     are taken as they are)
   * @param exported which of them a caller may name
   */
  ApiLeaks(Predicate<String> ownPackages, Predicate<String> exported) {
    this.ownPackages = ownPackages;
    this.exported = exported;
  }

  /** Each leak of {@code types}, one line each: the member and the type it should not name. */
  Set<String> in(Collection<Class<?>> types) {
    Set<String> leaks = new TreeSet<>();
    for (Class<?> type : types) {
      if (!isVisibleApi(type)) {
        continue;
      }
      if (type.getGenericSuperclass() != null) {
        check(leaks, type.getName() + " extends", type.getGenericSuperclass());
      }
      for (Type i : type.getGenericInterfaces()) {
        check(leaks, type.getName() + " implements", i);
      }
      for (Field f : type.getDeclaredFields()) {
        if (visible(f) && !f.isSynthetic()) {
          check(leaks, type.getName() + "." + f.getName(), f.getGenericType());
        }
      }
      for (Constructor<?> c : type.getDeclaredConstructors()) {
        if (visible(c) && !c.isSynthetic()) {
          for (Type p : c.getGenericParameterTypes()) {
            check(leaks, type.getName() + "(…)", p);
          }
        }
      }
      for (Method m : type.getDeclaredMethods()) {
        if (visible(m) && !m.isSynthetic() && !m.isBridge()) {
          String where = type.getName() + "." + m.getName() + "(…)";
          check(leaks, where, m.getGenericReturnType());
          for (Type p : m.getGenericParameterTypes()) {
            check(leaks, where, p);
          }
          for (Type e : m.getGenericExceptionTypes()) {
            check(leaks, where, e);
          }
        }
      }
      if (type.isRecord()) {
        for (RecordComponent rc : type.getRecordComponents()) {
          check(leaks, type.getName() + "." + rc.getName(), rc.getGenericType());
        }
      }
    }
    return leaks;
  }

  /** A public type of an exported package, nested only in such types. */
  private boolean isVisibleApi(Class<?> type) {
    for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
      if (!Modifier.isPublic(t.getModifiers()) && !(t != type && isInterfaceMember(t))) {
        return false;
      }
    }
    return exported.test(type.getPackageName()) && !type.isAnonymousClass() && !type.isSynthetic();
  }

  private static boolean isInterfaceMember(Class<?> t) {
    return t.getEnclosingClass() != null && t.getEnclosingClass().isInterface();
  }

  private static boolean visible(Member m) {
    int mod = m.getModifiers();
    boolean inInterface = m.getDeclaringClass().isInterface() && !Modifier.isPrivate(mod);
    if (Modifier.isProtected(mod) && Modifier.isFinal(m.getDeclaringClass().getModifiers())) {
      return false;
    }
    return Modifier.isPublic(mod) || Modifier.isProtected(mod) || inInterface;
  }

  private void check(Set<String> leaks, String where, Type type) {
    if (type instanceof Class<?> c) {
      Class<?> element = c;
      while (element.isArray()) {
        element = element.getComponentType();
      }
      if (element.isPrimitive() || !ownPackages.test(element.getPackageName())) {
        return;
      }
      if (!isVisibleApi(element)) {
        leaks.add(where + " names " + element.getName()
            + (exported.test(element.getPackageName()) ? " (not public)" : " (not exported)"));
      }
    } else if (type instanceof ParameterizedType p) {
      check(leaks, where, p.getRawType());
      for (Type a : p.getActualTypeArguments()) {
        check(leaks, where, a);
      }
    } else if (type instanceof WildcardType w) {
      for (Type b : w.getUpperBounds()) {
        check(leaks, where, b);
      }
      for (Type b : w.getLowerBounds()) {
        check(leaks, where, b);
      }
    } else if (type instanceof GenericArrayType g) {
      check(leaks, where, g.getGenericComponentType());
    } else if (type instanceof TypeVariable<?> v) {
      for (Type b : v.getBounds()) {
        check(leaks, where, b);
      }
    }
  }
}
