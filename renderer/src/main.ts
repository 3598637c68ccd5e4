import './styles/app.css';
import { mount } from 'svelte';
import { applyTheme, currentTheme } from './lib/theme.js';
import App from './App.svelte';

// Before the first paint of the app: the CSS already follows prefers-color-scheme, this applies a stored choice.
applyTheme(currentTheme());

const target = document.getElementById('app');
if (!target) throw new Error('#app element missing from index.html');
mount(App, { target });
