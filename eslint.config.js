import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'clients/typescript/dist/**',
      'clients/typescript/node_modules/**',
      'coverage/**',
      '.notifyd/**',
      'src/metadata.ts',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // Not consistent-type-imports: a class used only as a constructor parameter type is still a
      // runtime value under emitDecoratorMetadata (Nest DI). isolatedModules (TS1272) already
      // catches the dangerous case, an interface imported without `type` in a decorated signature.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', '**/*.spec.ts', 'clients/*/test/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
