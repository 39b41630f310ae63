#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *fma3(PyObject *self, PyObject *args) {
    double a, b, c;
    if (!PyArg_ParseTuple(args, "ddd", &a, &b, &c)) return NULL;
    return PyFloat_FromDouble(a * b + c);
}

static PyMethodDef methods[] = {{"fma3", fma3, METH_VARARGS, "a*b+c"}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "fastfma", NULL, -1, methods};
PyMODINIT_FUNC PyInit_fastfma(void) { return PyModule_Create(&module); }
