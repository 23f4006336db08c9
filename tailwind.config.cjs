/** Tailwind theme for Meshfront. Loaded from src/styles/global.css with `@config`. */
module.exports = {
  darkMode: 'class',
  theme: {
    extend: {
      colors: {
        // The active theme's main colour comes from CSS variables set by [data-theme].
        main: 'rgb(var(--color-main) / <alpha-value>)',
        'main-tint': 'rgb(var(--color-main-tint) / <alpha-value>)',
        'on-main': 'rgb(var(--color-on-main) / <alpha-value>)',
        primary: { DEFAULT: '#8200FF', tint: '#F3E6FF' },
        secondary: { DEFAULT: '#00FFAA', tint: '#CCFFEE' },
      },
      screens: { xs: '320px', sm: '640px', md: '768px', lg: '1024px', xl: '1280px', '2xl': '1536px' },
      fontFamily: {
        sans: ['Inter', 'ui-sans-serif', 'system-ui', '-apple-system', 'Segoe UI', 'Roboto', 'sans-serif'],
      },
    },
  },
};
