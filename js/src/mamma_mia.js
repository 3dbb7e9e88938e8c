export default { render({ model, el }) { el.textContent = 'mamma_mia'; } };
